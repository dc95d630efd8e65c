import { skipToken } from '@reduxjs/toolkit/query'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { TrainingLanguage } from '../../lib/api/generated.ts'
import {
  bulkStaleSeconds,
  useGetBulkDescriptorsQuery,
  useListGestaltsQuery,
  useListPerceptionsQuery,
} from './api.ts'
import { buildCategories, wordsByCategory, type Category, type CategoryWords } from './catalog.ts'
import { useDescriptorViewer } from './use-descriptor-viewer.ts'

export type DescriptorCatalog = {
  categories: Category[]
  words: Map<string, CategoryWords>
  /** Categories are not known yet. */
  loadingCategories: boolean
  /** Words are not known yet (or are being fetched for another language or viewer). */
  loadingWords: boolean
  /** What failed to load, in the spec's words; null when all is well. */
  failure: string | null
  retry: () => void
}

/** The trainer's categories and their words in `language`, as the current viewer sees them. */
export function useDescriptorCatalog(language: TrainingLanguage): DescriptorCatalog {
  const { t } = useTranslation('descriptors')
  const viewer = useDescriptorViewer()
  const gestalts = useListGestaltsQuery({ language })
  const perceptions = useListPerceptionsQuery({ language })
  const bulk = useGetBulkDescriptorsQuery(viewer === undefined ? skipToken : { language }, {
    refetchOnMountOrArgChange: bulkStaleSeconds,
  })

  const categories = useMemo(
    () => buildCategories(gestalts.data ?? [], perceptions.data ?? []),
    [gestalts.data, perceptions.data],
  )
  const words = useMemo(() => wordsByCategory(bulk.data), [bulk.data])

  let failure: string | null = null
  if (gestalts.isError) failure = t('trainer.gestaltsFailed')
  else if (perceptions.isError) failure = t('trainer.perceptionsFailed')
  else if (bulk.isError) failure = t('trainer.wordsFailed')

  return {
    categories,
    words,
    loadingCategories: gestalts.isLoading || perceptions.isLoading,
    loadingWords: viewer === undefined || bulk.isLoading || (bulk.isFetching && !bulk.currentData),
    failure,
    retry: () => {
      if (gestalts.isError) void gestalts.refetch()
      if (perceptions.isError) void perceptions.refetch()
      if (bulk.isError) void bulk.refetch()
    },
  }
}
