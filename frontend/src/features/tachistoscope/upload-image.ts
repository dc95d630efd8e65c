import i18next from 'i18next'
import { useCallback } from 'react'
import { useAppDispatch, useAppStore } from '../../lib/store/index.ts'
import { errorMessage } from '../../lib/api/errors.ts'
import type { TachistoscopeUploadResult } from '../../lib/api/generated.ts'
import { tachistoscopeApi } from './api.ts'
import { selectAccessToken } from '../../lib/session/session-slice.ts'
import type { ImageCategory } from './exposures.ts'

export type UploadOutcome =
  { ok: true; image: TachistoscopeUploadResult } | { ok: false; status: number; message: string }

const uploadUrl = '/api/tachistoscope/images/upload'

/** Whether the browser calls the file an image (spec §5: other files are skipped). */
export const looksLikeImage = (file: File) => file.type.startsWith('image/')

function messageOf(status: number, body: string): string {
  if (status === 0) return i18next.t('tachistoscope:upload.connectionLost')
  const failed = i18next.t('tachistoscope:upload.uploadFailed')
  try {
    return errorMessage(JSON.parse(body), `${status}: ${failed}`)
  } catch {
    // not JSON: what came, if anything
    return `${status}: ${body || failed}`
  }
}

/** One multipart upload with progress (fetch cannot report upload progress; XHR can). */
function send(
  file: File,
  form: { category: ImageCategory; fit: boolean },
  token: string | null,
  onProgress: (fraction: number) => void,
): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const body = new FormData()
    // Fields before the file, so the server knows them before the bytes arrive.
    body.append('category', form.category)
    body.append('fit', String(form.fit))
    body.append('file', file, file.name)
    const xhr = new XMLHttpRequest()
    xhr.open('POST', uploadUrl)
    xhr.withCredentials = true
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => {
      if (xhr.status === 201) {
        onProgress(1)
        resolve({ ok: true, image: JSON.parse(xhr.responseText) as TachistoscopeUploadResult })
      } else {
        resolve({ ok: false, status: xhr.status, message: messageOf(xhr.status, xhr.responseText) })
      }
    }
    xhr.onerror = () => resolve({ ok: false, status: 0, message: messageOf(0, '') })
    xhr.send(body)
  })
}

/**
 * Uploads one picture to a category, reporting progress; an expired access token is renewed
 * once through the session's refresh call, as every other API call does.
 */
export function useImageUpload() {
  const store = useAppStore()
  const dispatch = useAppDispatch()
  return useCallback(
    async (
      file: File,
      form: { category: ImageCategory; fit: boolean },
      onProgress: (fraction: number) => void,
    ): Promise<UploadOutcome> => {
      const first = await send(file, form, selectAccessToken(store.getState()), onProgress)
      if (first.ok || first.status !== 401) return first
      await dispatch(tachistoscopeApi.endpoints.refreshSession.initiate({}))
      return send(file, form, selectAccessToken(store.getState()), onProgress)
    },
    [store, dispatch],
  )
}
