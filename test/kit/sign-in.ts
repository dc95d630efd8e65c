// Phone sign-in through the development SMS outbox, over plain fetch: for the root suites, the
// bench and the browser kit (test/browser/accounts.ts, which starts and verifies over a
// browser's request context so that the context keeps the refresh cookie). No vitest here: the
// bench and the faults' attacker process import it too.

/** A number no other test uses, so codes, attempts and limits are this test's own. */
export function newPhone(): string {
  // Not below +15551000000: the suites' administrators and fixed numbers live there.
  return `+1555${1_000_000 + Math.floor(Math.random() * 9e6)}`
}

/** What the dev SMS outbox holds for `phone`, in the order the codes were sent. */
export async function outboxFor(
  base: string,
  phone: string,
  headers: Record<string, string> = {},
): Promise<{ phone: string; code: string }[]> {
  const response = await fetch(
    `${base}/api/auth/dev/sms-outbox?phone=${encodeURIComponent(phone)}`,
    { headers },
  )
  if (response.status !== 200) throw new Error(`the SMS outbox answered ${response.status}`)
  const entries = (await response.json()) as { phone: string; code: string }[]
  return entries.filter((entry) => entry.phone === phone)
}

export async function codeSentTo(
  base: string,
  phone: string,
  headers: Record<string, string> = {},
): Promise<string> {
  // Only the newest code of a number still works.
  const newest = (await outboxFor(base, phone, headers)).at(-1)
  if (!newest) throw new Error(`no code was sent to ${phone}`)
  return newest.code
}

/** An answer as fetch's Response and Playwright's APIResponse (adapted) both give it. */
export interface Answer {
  status: number
  json(): Promise<unknown>
}

/**
 * Asks for a code with `start` (a `POST /api/auth/phone/start`) until it is sent: waits out the
 * resend cooldown (429, `retryAfterSeconds`) if another test just asked for a code for the same
 * number, at most three times.
 */
export async function untilCodeSent(start: () => Promise<Answer>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const answer = await start()
    if (answer.status >= 200 && answer.status < 300) return
    if (answer.status !== 429 || attempt > 2) throw new Error(`code not sent: ${answer.status}`)
    const retry = ((await answer.json()) as { error: { details?: { retryAfterSeconds?: number } } })
      .error.details?.retryAfterSeconds
    await new Promise((resolve) => setTimeout(resolve, ((retry ?? 30) + 1) * 1000))
  }
}

/**
 * Signs `phone` in through the API with the dev SMS outbox's code and returns the access token.
 * `headers` go with every request (a client address, the outbox's key).
 */
export async function signInByOutbox(
  base: string,
  phone: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const post = (path: string, body: object) =>
    fetch(base + path, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  await untilCodeSent(() => post('/api/auth/phone/start', { phone }))
  const code = await codeSentTo(base, phone, headers)
  const verified = await post('/api/auth/phone/verify', { phone, code })
  if (verified.status !== 200) throw new Error(`code not accepted: ${verified.status}`)
  return ((await verified.json()) as { accessToken: string }).accessToken
}
