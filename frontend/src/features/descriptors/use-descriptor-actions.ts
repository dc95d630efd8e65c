import { skipToken } from '@reduxjs/toolkit/query'
import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAppDispatch } from '../../lib/store/index.ts'
import { useToast } from '../../components/toast/index.ts'
import { errorMessage } from '../../lib/api/index.ts'
import type { Descriptor, Language } from '../../lib/api/generated.ts'
import {
  descriptorsApi,
  useListUserDescriptorsQuery,
  useDeleteDescriptorMutation,
  useDirectDeleteDescriptorMutation,
  useToggleDescriptorHiddenMutation,
} from './api.ts'
import { saveCsv } from './csv-file.ts'

function statusOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'status' in error
    ? (error as { status: unknown }).status
    : undefined
}

// A refusal (4xx) would be refused again; only a lost or failed call is worth the fallback route.
function worthRetrying(error: unknown): boolean {
  const status = statusOf(error)
  return typeof status !== 'number' || status >= 500
}

/**
 * Deletes one of the user's words, through the spec's fallback route if the first call fails on
 * the way, and says how it went. Resolves to whether the word is gone.
 */
export function useDeleteDescriptor() {
  const { toast } = useToast()
  const { t } = useTranslation('descriptors')
  const [deleteDescriptor] = useDeleteDescriptorMutation()
  const [directDelete] = useDirectDeleteDescriptorMutation()
  const [deletingId, setDeletingId] = useState<number | null>(null)

  const remove = useCallback(
    async (descriptor: Descriptor): Promise<boolean> => {
      setDeletingId(descriptor.id)
      try {
        let result = await deleteDescriptor({ id: descriptor.id })
        if (result.error && worthRetrying(result.error)) {
          result = await directDelete({ id: descriptor.id })
        }
        if (result.error) {
          toast({
            title: t('toasts.error'),
            description: errorMessage(result.error, t('toasts.deleteFailed')),
            variant: 'destructive',
          })
          return false
        }
        toast({
          title: t('toasts.deleted'),
          description: t('toasts.deletedText', { word: descriptor.word }),
          variant: 'success',
        })
        return true
      } finally {
        setDeletingId(null)
      }
    },
    [deleteDescriptor, directDelete, toast, t],
  )

  return { remove, deletingId }
}

/** Hides a default word from the user's view, or brings it back (spec §4 'Per-user hide'). */
export function useToggleHidden() {
  const { toast } = useToast()
  const { t } = useTranslation('descriptors')
  const [toggle] = useToggleDescriptorHiddenMutation()
  const [togglingId, setTogglingId] = useState<number | null>(null)

  const toggleHidden = useCallback(
    async (descriptor: Descriptor) => {
      setTogglingId(descriptor.id)
      try {
        const result = await toggle({ id: descriptor.id })
        if (result.error) {
          toast({
            title: t('toasts.error'),
            description: t('toasts.visibilityFailed'),
            variant: 'destructive',
          })
          return
        }
        toast(
          result.data.hidden
            ? {
                title: t('toasts.hidden'),
                description: t('toasts.hiddenText', { word: descriptor.word }),
              }
            : {
                title: t('toasts.unhidden'),
                description: t('toasts.unhiddenText', { word: descriptor.word }),
              },
        )
      } finally {
        setTogglingId(null)
      }
    },
    [toggle, toast, t],
  )

  return { toggleHidden, togglingId }
}

/** Downloads the user's custom descriptors in one language as CSV, with the spec's toasts. */
export function useCsvExport() {
  const dispatch = useAppDispatch()
  const { toast } = useToast()
  const { t } = useTranslation('descriptors')
  const [exporting, setExporting] = useState<Language | null>(null)

  const exportCsv = useCallback(
    async (language: Language) => {
      setExporting(language)
      try {
        const result = await dispatch(
          descriptorsApi.endpoints.exportUserDescriptors.initiate(
            { language },
            { subscribe: false, forceRefetch: true },
          ),
        )
        if (result.error || !result.data) {
          toast(
            statusOf(result.error) === 401
              ? {
                  title: t('toasts.authRequired'),
                  description: t('toasts.signInToExport'),
                  variant: 'destructive',
                }
              : {
                  title: t('toasts.exportFailed'),
                  description: t('toasts.exportFailedText'),
                  variant: 'destructive',
                },
          )
          return
        }
        saveCsv(result.data)
        toast({
          title: t('toasts.exported'),
          description: t('toasts.saved', { fileName: result.data.fileName }),
          variant: 'success',
        })
      } finally {
        setExporting(null)
      }
    },
    [dispatch, toast, t],
  )

  return { exportCsv, exporting }
}

/**
 * How many of the caller's own words each language holds (undefined while loading): an export
 * shows what it will contain, and a language without words has nothing to download.
 */
export function useOwnWordCounts(signedIn = true): (language: string) => number | undefined {
  const { data } = useListUserDescriptorsQuery(signedIn ? {} : skipToken)
  return useCallback(
    (language: string) => data?.filter((d) => d.language === language).length,
    [data],
  )
}
