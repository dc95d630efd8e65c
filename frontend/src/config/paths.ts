export const paths = {
  home: '/',
  descriptors: '/descriptors',
  descriptorTraining: '/descriptor-training',
  tachistoscope: '/tachistoscope',
  tachistoscopeAdmin: '/tachistoscope-admin',
  siderealTime: '/sidereal-time',
  customDescriptors: '/admin',
  descriptorManagement: '/admin/descriptors',
  pendingDescriptors: '/admin/pending-descriptors',
  adminPanel: '/admin-panel',
  exportData: '/export-data',
  practice: '/practice',
  practiceSession: '/practice/session/:id',
  practiceStats: '/practice/stats',
  practiceContributions: '/practice/contributions',
  adminTargets: '/admin/targets',
  progress: '/progress',
  settings: '/settings',
} as const

export type AppPath = (typeof paths)[keyof typeof paths]

export const practiceSessionPath = (id: string) => `/practice/session/${encodeURIComponent(id)}`
