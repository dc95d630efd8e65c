import type { DefinitionsFromApi, OverrideResultType } from '@reduxjs/toolkit/query'
import { api } from '../../lib/api/generated.ts'
import { asTextExport } from '../../lib/api/text-export.ts'

type Definitions = DefinitionsFromApi<typeof api>
type PracticeDefinitions = Omit<Definitions, 'exportPracticeSessions'> & {
  exportPracticeSessions: OverrideResultType<Definitions['exportPracticeSessions'], string>
}

/**
 * The generated practice endpoints. An autosave invalidates nothing (refetching the session
 * while the viewer types would replace what they are typing); a lock or a judging refreshes the
 * session, the list and the statistics; the export comes as text, saved as a file by the page.
 */
export const practiceApi = api.enhanceEndpoints<never, PracticeDefinitions>({
  endpoints: {
    savePracticeWriteUp: { invalidatesTags: [] },
    // A dry run of an import stores nothing: the pool's lists stay as they are.
    importPracticeTargets: {
      invalidatesTags: (report) => (report && !report.dryRun ? ['practice'] : []),
    },
    getPracticeSession: { keepUnusedDataFor: 0 },
    getPracticeStats: { keepUnusedDataFor: 0 },
    exportPracticeSessions: asTextExport,
  },
})

export const {
  useStartPracticeSessionMutation,
  useListPracticeSessionsQuery,
  useGetPracticeSessionQuery,
  useSavePracticeWriteUpMutation,
  useLockPracticeSessionMutation,
  useJudgePracticeSessionMutation,
  useGetPracticeStatsQuery,
  useListPracticeSeriesQuery,
  useDeclarePracticeSeriesMutation,
  useLazyExportPracticeSessionsQuery,
  useSearchPracticeConceptsQuery,
  useSubmitPracticeContributionMutation,
  useListMyPracticeContributionsQuery,
  useListPracticeContributionsQuery,
  useTagPracticeContributionMutation,
  useApprovePracticeContributionMutation,
  useRejectPracticeContributionMutation,
  useStartPracticeTrialMutation,
  useLockPracticeTrialMutation,
  useJudgePracticeTrialMutation,
  useListPracticePoolsQuery,
  useCreatePracticePoolMutation,
  useListPracticeTargetsQuery,
  useCreatePracticeTargetsMutation,
  useUpdatePracticeTargetMutation,
  useDeletePracticeTargetMutation,
  useImportPracticeTargetsMutation,
  useGetPracticePoolHealthQuery,
  useCalculateSiderealTimeCustomMutation,
} = practiceApi

export type {
  PracticeCandidate,
  PracticeConcept,
  PracticeContribution,
  PracticeContributionReview,
  PracticeDescriptorEntry,
  PracticeDrawing,
  PracticeImportReason,
  PracticeImportReport,
  PracticeImportRow,
  PracticePoolHealth,
  PracticeReveal,
  PracticeSession,
  PracticeSessionSummary,
  PracticeStats,
  PracticeTarget,
  PracticeWriteUp,
} from '../../lib/api/generated.ts'
