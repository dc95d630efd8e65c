import type { DefinitionsFromApi, FetchArgs, OverrideResultType } from '@reduxjs/toolkit/query'
import { api } from '../../../lib/api/generated.ts'

type Definitions = DefinitionsFromApi<typeof api>
type VoiceDefinitions = Omit<Definitions, 'synthesizeSpeech'> & {
  synthesizeSpeech: OverrideResultType<Definitions['synthesizeSpeech'], Blob>
}

// MP3 bytes as a Blob; an error answer stays JSON so its code reaches the caller.
async function audioOrError(response: Response): Promise<unknown> {
  if (response.ok) return response.blob()
  const type = response.headers.get('content-type') ?? ''
  return type.includes('json') ? response.json() : response.text()
}

/**
 * Speech for the trainer: the word's MP3 arrives as a Blob (the generated endpoint would parse
 * it as JSON), and neither call refreshes any cached data.
 */
export const voiceApi = api.enhanceEndpoints<never, VoiceDefinitions>({
  endpoints: {
    synthesizeSpeech: (definition) => {
      const query = definition.query
      definition.invalidatesTags = []
      if (query) {
        definition.query = (arg) => {
          const args = query(arg) as FetchArgs
          return { ...args, responseHandler: audioOrError }
        }
      }
    },
    generateSentenceWithSpeech: { invalidatesTags: [] },
  },
})

export const { useSynthesizeSpeechMutation, useGenerateSentenceWithSpeechMutation } = voiceApi
