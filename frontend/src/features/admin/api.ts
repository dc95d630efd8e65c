import type { DefinitionsFromApi, OverrideResultType } from '@reduxjs/toolkit/query'
import { api } from '../../lib/api/generated.ts'
import { asTextExport } from '../../lib/api/text-export.ts'

type Definitions = DefinitionsFromApi<typeof api>
type AdminDefinitions = Omit<Definitions, 'exportAllDescriptors'> & {
  exportAllDescriptors: OverrideResultType<Definitions['exportAllDescriptors'], string>
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
    exportAllDescriptors: asTextExport,
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
