import type { FetchArgs } from '@reduxjs/toolkit/query'

// The export's bytes as text (CSV or JSON), saved as a file by the page; errors stay JSON.
async function textOrError(response: Response): Promise<unknown> {
  if (response.ok) return response.text()
  const type = response.headers.get('content-type') ?? ''
  return type.includes('json') ? response.json() : response.text()
}

/**
 * Makes a generated export endpoint fetch its file as text, never from a cache: for a feature's
 * `api.enhanceEndpoints`, with the endpoint's result type overridden to `string`
 * (`OverrideResultType`).
 */
export function asTextExport<Arg>(definition: {
  query?: (arg: Arg) => string | FetchArgs
  keepUnusedDataFor?: number
}): void {
  const query = definition.query
  definition.keepUnusedDataFor = 0
  if (query) {
    definition.query = (arg) => {
      const args = query(arg)
      const base: FetchArgs = typeof args === 'string' ? { url: args } : args
      return { ...base, cache: 'no-store', responseHandler: textOrError }
    }
  }
}
