import { api } from '../../lib/api/generated.ts'

/**
 * The tachistoscope's endpoints as generated: the pictures of a category (refreshed by the
 * generated 'media' tag after an upload or a deletion), and the settings that say who may train.
 * An upload goes by its own request (upload-image.ts), then invalidates 'media' through this api.
 */
export const tachistoscopeApi = api

export const {
  useListTachistoscopeImagesQuery,
  useDeleteTachistoscopeImageMutation,
  useGetAppSettingsQuery,
} = tachistoscopeApi
