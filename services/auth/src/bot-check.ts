import { AppError } from '@crv/kit'

const VERIFY_URLS = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
} as const

export type BotCheck = (token: string | undefined, ip: string) => Promise<void>

const failed = () =>
  new AppError('bot_check_failed', 400, 'Please complete the reCAPTCHA verification first')

/** The server side of the invisible check the spec puts before sending a code; off by default. */
export function createBotCheck(
  kind: 'none' | 'turnstile' | 'recaptcha',
  secret: string | undefined,
  verifyUrl?: string,
): BotCheck {
  if (kind === 'none') return async () => {}
  const url = verifyUrl ?? VERIFY_URLS[kind]
  return async (token, ip) => {
    if (!token) throw failed()
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: secret ?? '', response: token, remoteip: ip }),
      signal: AbortSignal.timeout(5_000),
    }).catch(() => null)
    const body = (await res?.json().catch(() => null)) as { success?: boolean } | null
    if (!body?.success) throw failed()
  }
}
