export type PageMeta = { title: string; description: string }

const suffix = ' | CRV Training'

export const pageMeta = {
  home: {
    title: 'CRV Training – Ideogram Gestalt Audio Training',
    description:
      'Practise CRV ideograms: basic gestalts read aloud in a loop at the pace you choose, with your own custom gestalts.',
  },
  descriptorTraining: {
    title: `Descriptor Training${suffix}`,
    description:
      'Build your CRV descriptor vocabulary for every stage in English, German, French, Spanish and Italian.',
  },
  tachistoscope: {
    title: `Tachistoscope${suffix}`,
    description: 'Flash a picture for a chosen exposure and train fast visual perception.',
  },
  tachistoscopeAdmin: {
    title: `Tachistoscope Images${suffix}`,
    description: 'Upload pictures for the tachistoscope trainer.',
  },
  siderealTime: {
    title: `Sidereal Time Calculator${suffix}`,
    description:
      'Local sidereal time for where you are or for any city and moment, with an explanation of why it matters for sessions.',
  },
  customDescriptors: {
    title: `Manage Your Custom Descriptors${suffix}`,
    description: 'Review and delete the descriptors you have added to your vocabulary.',
  },
  descriptorManagement: {
    title: `Descriptor Management${suffix}`,
    description: 'Search, filter and delete descriptors across all languages.',
  },
  pendingDescriptors: {
    title: `Pending Descriptors${suffix}`,
    description: 'Review descriptors submitted by users: promote them or reject them.',
  },
  adminPanel: {
    title: `Admin Panel${suffix}`,
    description: 'Moderation, images, descriptors and settings for CRV Training.',
  },
  exportData: {
    title: `Export Your Data${suffix}`,
    description: 'Download your custom descriptors as CSV files, one per language.',
  },
  practice: {
    title: `Practice${suffix}`,
    description:
      'Practise remote viewing on sealed blind targets: a CRV write-up, rank-order judging, a verifiable reveal and a score.',
  },
  practiceSession: {
    title: `Practice Session${suffix}`,
    description:
      'Your CRV write-up of a sealed target, saved as you write; then lock, judge and see the target.',
  },
  practiceStats: {
    title: `Practice Statistics${suffix}`,
    description:
      'Your results against chance: sum of ranks, first-place hits, strengths by sensory column and by sidereal time.',
  },
  progress: {
    title: `Your Progress${suffix}`,
    description:
      'Your training across devices: streaks, minutes per day, words due for review and retention.',
  },
  adminTargets: {
    title: `Practice Targets${suffix}`,
    description: 'Target pools for practice sessions: upload, tag, edit and retire targets.',
  },
  notFound: {
    title: `Page Not Found${suffix}`,
    description: 'This page does not exist in CRV Training.',
  },
} satisfies Record<string, PageMeta>
