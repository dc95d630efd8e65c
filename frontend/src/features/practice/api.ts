import type { DefinitionsFromApi, FetchArgs, OverrideResultType } from '@reduxjs/toolkit/query'
import { api } from '../../lib/api/generated.ts'

type Definitions = DefinitionsFromApi<typeof api>
type PracticeDefinitions = Omit<Definitions, 'exportPracticeSessions'> & {
  exportPracticeSessions: OverrideResultType<Definitions['exportPracticeSessions'], string>
}

async function textOrError(response: Response): Promise<unknown> {
  if (response.ok) return response.text()
  const type = response.headers.get('content-type') ?? ''
  return type.includes('json') ? response.json() : response.text()
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
    exportPracticeSessions: (definition) => {
      const query = definition.query
      definition.keepUnusedDataFor = 0
      if (query) {
        definition.query = (arg) => {
          const args = query(arg)
          const base: FetchArgs = typeof args === 'string' ? { url: args } : args
          return { ...base, cache: 'no-store', responseHandler: textOrError }
        }
      }
    },
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
