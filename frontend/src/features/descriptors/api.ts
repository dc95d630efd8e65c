import type {
  DefinitionsFromApi,
  FetchArgs,
  FetchBaseQueryMeta,
  OverrideResultType,
} from '@reduxjs/toolkit/query'
import { api } from '../../lib/api/generated.ts'
import type { ExportUserDescriptorsApiArg } from '../../lib/api/generated.ts'
import {
  decodeKeepingBom,
  defaultCsvFileName,
  fileNameFromDisposition,
  type CsvFile,
} from './csv-file.ts'

type Definitions = DefinitionsFromApi<typeof api>
type DescriptorDefinitions = Omit<Definitions, 'exportUserDescriptors'> & {
  exportUserDescriptors: OverrideResultType<Definitions['exportUserDescriptors'], CsvFile>
}

/** Bulk descriptor data is refetched by a page that mounts after it is this old (spec §9). */
export const bulkStaleSeconds = 5 * 60

function withFetchOptions(args: string | FetchArgs, options: Partial<FetchArgs>): FetchArgs {
  return typeof args === 'string' ? { url: args, ...options } : { ...args, ...options }
}

// The CSV's bytes as sent (the UTF-8 BOM that Excel needs included); error bodies stay JSON.
async function csvOrError(response: Response): Promise<unknown> {
  if (response.ok) return decodeKeepingBom(await response.arrayBuffer())
  const type = response.headers.get('content-type') ?? ''
  return type.includes('json') ? response.json() : response.text()
}

/**
 * The generated descriptor endpoints, tuned for the trainer: bulk data kept 10 minutes and never
 * answered from the browser's HTTP cache (the server allows 5 minutes of it, which would hide a
 * word just added or hidden, and another viewer's copy after sign-in); random draws refresh
 * nothing; hide toggles show at once and are undone if the server refuses; the CSV export comes as
 * text with its file name.
 */
export const descriptorsApi = api.enhanceEndpoints<never, DescriptorDefinitions>({
  endpoints: {
    getBulkDescriptors: (definition) => {
      const query = definition.query
      definition.keepUnusedDataFor = 10 * 60
      if (query) definition.query = (arg) => withFetchOptions(query(arg), { cache: 'no-cache' })
    },
    getRandomDescriptor: { invalidatesTags: [] },
    // A review changes no word: nothing cached needs fetching again (the figures refetch
    // when the review dialog closes).
    getReviewQueue: { invalidatesTags: [] },
    answerReviews: { invalidatesTags: [] },
    toggleDescriptorHidden: {
      async onQueryStarted({ id }, { dispatch, getState, queryFulfilled }) {
        const cached = api.util.selectCachedArgsForQuery(getState(), 'getBulkDescriptors')
        const patches = cached.map((arg) =>
          dispatch(
            api.util.updateQueryData('getBulkDescriptors', arg, (bulk) => {
              const descriptor = bulk.systemDescriptors.find((d) => d.id === id)
              if (!descriptor) return
              descriptor.hidden = !descriptor.hidden
              bulk.hiddenDescriptorIds = descriptor.hidden
                ? [...bulk.hiddenDescriptorIds, id]
                : bulk.hiddenDescriptorIds.filter((hiddenId) => hiddenId !== id)
            }),
          ),
        )
        try {
          await queryFulfilled
        } catch {
          for (const patch of patches) patch.undo()
        }
      },
    },
    exportUserDescriptors: (definition) => {
      const query = definition.query
      definition.keepUnusedDataFor = 0
      if (query) {
        definition.query = (arg) =>
          withFetchOptions(query(arg), { cache: 'no-store', responseHandler: csvOrError })
      }
      definition.transformResponse = (
        text: string,
        meta: FetchBaseQueryMeta | undefined,
        arg: ExportUserDescriptorsApiArg,
      ): CsvFile => ({
        text,
        fileName:
          fileNameFromDisposition(meta?.response?.headers.get('content-disposition')) ??
          defaultCsvFileName(arg.language, new Date()),
      })
    },
  },
})

export const {
  useListGestaltsQuery,
  useListPerceptionsQuery,
  useGetBulkDescriptorsQuery,
  useGetRandomDescriptorMutation,
  useCreateDescriptorMutation,
  useDeleteDescriptorMutation,
  useDirectDeleteDescriptorMutation,
  useToggleDescriptorHiddenMutation,
  useListUserDescriptorsQuery,
  useGetReviewQueueMutation,
  useAnswerReviewsMutation,
  useGetReviewStatsQuery,
  useGetTrainingHistoryQuery,
  useGetAppSettingsQuery,
} = descriptorsApi
