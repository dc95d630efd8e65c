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
} as const

export type AppPath = (typeof paths)[keyof typeof paths]
