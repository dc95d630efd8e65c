import type { DefinitionsFromApi, FetchArgs, OverrideResultType } from '@reduxjs/toolkit/query'
import { api } from '../../lib/api/generated.ts'

type Definitions = DefinitionsFromApi<typeof api>
type AdminDefinitions = Omit<Definitions, 'exportAllDescriptors'> & {
  exportAllDescriptors: OverrideResultType<Definitions['exportAllDescriptors'], string>
}

// The export's bytes as text (CSV or JSON), saved as a file by the page; errors stay JSON.
async function textOrError(response: Response): Promise<unknown> {
  if (response.ok) return response.text()
  const type = response.headers.get('content-type') ?? ''
  return type.includes('json') ? response.json() : response.text()
}

/**
 * The generated admin endpoints: the pending list and the management list refetch whenever a
 * descriptor changes (the generated 'descriptors' tag); stats, health and the queue are always
 * read fresh when the Database tab opens; the export comes as text.
 */
export const adminApi = api.enhanceEndpoints<never, AdminDefinitions>({
  endpoints: {
    getAdminStats: { keepUnusedDataFor: 0 },
    getAnalyticsSummary: { keepUnusedDataFor: 0 },
    getHealth: { keepUnusedDataFor: 0 },
    getSpeechQueue: { keepUnusedDataFor: 0 },
    getStorageUsage: { keepUnusedDataFor: 0 },
    exportAllDescriptors: (definition) => {
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
  useListGestaltsQuery,
  useListPerceptionsQuery,
  useListPendingDescriptorsQuery,
  usePromoteDescriptorMutation,
  useRejectDescriptorMutation,
  useListAdminDescriptorsQuery,
  useBulkDeleteDescriptorsMutation,
  useDeleteDescriptorAllLanguagesMutation,
  useLazyExportAllDescriptorsQuery,
  useGetAppSettingsQuery,
  useUpdateAppSettingsMutation,
  useGetAdminStatsQuery,
  useSeedDatabaseMutation,
  useOptimizeTablesMutation,
  useGetAnalyticsSummaryQuery,
  useGetHealthQuery,
  useGetSpeechQueueQuery,
  useGetStorageUsageQuery,
} = adminApi
