import { api } from '../../lib/api/generated.ts'

/** Custom gestalts: the list refreshes after a word is added or deleted. */
export const ideogramApi = api.enhanceEndpoints({
  addTagTypes: ['CustomWord'],
  endpoints: {
    listCustomWords: { providesTags: ['CustomWord'] },
    generateCustomWordAudio: { invalidatesTags: ['CustomWord'] },
    deleteCustomWord: { invalidatesTags: ['CustomWord'] },
  },
})

export const {
  useListCustomWordsQuery,
  useGenerateCustomWordAudioMutation,
  useDeleteCustomWordMutation,
} = ideogramApi
