// Each service that keeps a user's data owns its part (`GET`/`DELETE /api/account/{part}`) and
// is called with the caller's own token, so no service trusts another with more than the user
// could do themselves.
import { AppError, unauthorized } from '@crv/kit'
import type { AuthConfig } from '../config.ts'

export const PARTS = ['descriptors', 'media', 'practice'] as const
export type Part = (typeof PARTS)[number]

const TIMEOUT_MS = 15_000

const partUnavailable = (part: Part) =>
  new AppError(
    'account_part_unavailable',
    503,
    `Your ${part} data cannot be reached right now. Nothing else was changed; please try again in a moment.`,
  )

export type CallPart = (
  part: Part,
  method: 'GET' | 'DELETE',
  authorization: string,
) => Promise<unknown>

/** Calls a service's part with the caller's token; a failure is a 503 naming the part. */
export function accountParts(config: AuthConfig): CallPart {
  const baseOf: Record<Part, string> = {
    descriptors: config.DESCRIPTORS_URL,
    media: config.MEDIA_URL,
    practice: config.PRACTICE_URL,
  }
  return async (part, method, authorization) => {
    let res: Response
    try {
      res = await fetch(new URL(`/api/account/${part}`, baseOf[part]), {
        method,
        headers: { authorization },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
    } catch {
      throw partUnavailable(part)
    }
    if (res.status === 401) throw unauthorized()
    if (!res.ok) throw partUnavailable(part)
    return method === 'GET' ? ((await res.json()) as unknown) : null
  }
}
