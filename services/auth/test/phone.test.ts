import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { authService, newPhone, outboxCode, post, randomIp, signIn } from './helpers.ts'

let app: FastifyInstance
beforeAll(async () => {
  app = await authService()
})
afterAll(() => app.close())

const start = (phone: string, ip?: string) => post(app, '/api/auth/phone/start', { phone }, {}, ip)
const verify = (phone: string, code: string) => post(app, '/api/auth/phone/verify', { phone, code })

describe('phone sign-in', () => {
  it('signs a new user in with the code sent to their number and creates the account', async () => {
    const phone = newPhone()
    const sent = await start(phone.replace(/^\+1555/, '+1 (555) '))
    expect(sent.statusCode).toBe(202)
    expect(sent.json()).toMatchObject({ expiresInSeconds: 300, resendAfterSeconds: 30 })
    const res = await verify(phone, outboxCode(app, phone))
    expect(res.statusCode).toBe(200)
    const { accessToken, user } = res.json()
    expect(accessToken.split('.')).toHaveLength(3)
    expect(user).toMatchObject({ phone, role: 'user', firstName: `Viewer ${phone.slice(-4)}` })
    expect(user.lastSignInAt).toBeTruthy()
  })

  it('normalises the number to E.164 and explains what is wrong with a bad one', async () => {
    const blank = await start('   ')
    expect(blank.statusCode).toBe(400)
    expect(blank.json().error).toEqual({
      code: 'phone_required',
      message: 'Please enter a valid phone number',
    })
    for (const bad of ['5550000002', '+1 555', 'call me', '+999 123']) {
      const res = await start(bad)
      expect(res.statusCode, bad).toBe(400)
      expect(res.json().error).toEqual({
        code: 'invalid_phone',
        message: 'Please enter a valid phone number with country code',
      })
    }
  })

  it('refuses a blank code with the spec message', async () => {
    const res = await verify(newPhone(), '  ')
    expect(res.statusCode).toBe(400)
  })

  it('accepts each code once only', async () => {
    const phone = newPhone()
    await start(phone)
    const code = outboxCode(app, phone)
    expect((await verify(phone, code)).statusCode).toBe(200)
    const again = await verify(phone, code)
    expect(again.statusCode).toBe(400)
    expect(again.json().error.code).toBe('invalid_code')
  })

  it('burns a code after five wrong attempts, so even the right code then fails', async () => {
    const phone = newPhone()
    await start(phone)
    const code = outboxCode(app, phone)
    const wrong = code === '000000' ? '111111' : '000000'
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await verify(phone, wrong)).statusCode)
    expect(statuses).toEqual([400, 400, 400, 400, 400])
    const right = await verify(phone, code)
    expect(right.statusCode).toBe(429)
    expect(right.json().error).toMatchObject({
      code: 'too_many_attempts',
      message: 'Too many attempts. Please try again later',
    })
  })

  it('cannot be brute-forced: 1,000 guesses against one number never sign in', async () => {
    const phone = newPhone()
    await start(phone)
    const code = outboxCode(app, phone)
    const outcomes = new Map<number, number>()
    for (let i = 0; i < 1000; i++) {
      const guess = String(i).padStart(6, '0')
      if (guess === code) continue
      const status = (await verify(phone, guess)).statusCode
      outcomes.set(status, (outcomes.get(status) ?? 0) + 1)
    }
    expect(outcomes.get(200)).toBeUndefined()
    expect(outcomes.get(400)).toBe(5)
    // The one right code, found too late, no longer works either.
    expect((await verify(phone, code)).statusCode).toBe(429)
  }, 60_000)

  it('makes an expired code useless', async () => {
    const phone = newPhone()
    await start(phone)
    await app.pg.query(
      `UPDATE auth.phone_codes SET expires_at = now() - interval '1 second' WHERE phone = $1`,
      [phone],
    )
    const res = await verify(phone, outboxCode(app, phone))
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('invalid_code')
  })

  it('only the newest code of a number works', async () => {
    const phone = newPhone()
    await start(phone)
    const first = outboxCode(app, phone)
    await app.pg.query(
      `UPDATE auth.phone_codes SET created_at = now() - interval '1 minute' WHERE phone = $1`,
      [phone],
    )
    await start(phone)
    const second = outboxCode(app, phone)
    if (first !== second) expect((await verify(phone, first)).statusCode).toBe(400)
    expect((await verify(phone, second)).statusCode).toBe(200)
  })

  it('makes a number wait before a code is sent again, then caps sends per hour', async () => {
    const phone = newPhone()
    expect((await start(phone)).statusCode).toBe(202)
    const soon = await start(phone)
    expect(soon.statusCode).toBe(429)
    expect(soon.json().error.details.retryAfterSeconds).toBeGreaterThan(0)
    // Past the cooldown (codes backdated), five sends an hour and no more.
    for (let i = 0; i < 4; i++) {
      await app.pg.query(
        `UPDATE auth.phone_codes SET created_at = created_at - interval '1 minute' WHERE phone = $1`,
        [phone],
      )
      expect((await start(phone)).statusCode).toBe(202)
    }
    await app.pg.query(
      `UPDATE auth.phone_codes SET created_at = created_at - interval '1 minute' WHERE phone = $1`,
      [phone],
    )
    const capped = await start(phone)
    expect(capped.statusCode).toBe(429)
    expect(capped.json().error.code).toBe('too_many_attempts')
  })

  it('caps sends from one address across numbers', async () => {
    const ip = randomIp()
    const statuses: number[] = []
    for (let i = 0; i < 21; i++) statuses.push((await start(newPhone(), ip)).statusCode)
    expect(statuses.slice(0, 20).every((s) => s === 202)).toBe(true)
    expect(statuses[20]).toBe(429)
  })

  it('makes a number on ADMIN_PHONES an administrator at sign-in', async () => {
    const admin = await signIn(app, '+15550000001')
    expect(admin.user.role).toBe('admin')
  })

  it('keeps the plain code out of the database', async () => {
    const phone = newPhone()
    await start(phone)
    const code = outboxCode(app, phone)
    const rows = await app.pg.query(`SELECT * FROM auth.phone_codes WHERE phone = $1`, [phone])
    expect(JSON.stringify(rows.rows)).not.toContain(code)
  })
})

describe('the dev SMS outbox', () => {
  it('lists codes sent outside production, filtered by number', async () => {
    const phone = newPhone()
    await start(phone)
    const res = await app.inject({
      method: 'GET',
      url: `/api/auth/dev/sms-outbox?phone=${encodeURIComponent(phone)}`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual([
      { phone, code: outboxCode(app, phone), sentAt: expect.any(String) },
    ])
  })

  it('lists codes in the order sent, the newest last', async () => {
    const [first, second] = [newPhone(), newPhone()]
    await start(first)
    await start(second)
    const phones = (await app.inject('/api/auth/dev/sms-outbox'))
      .json()
      .map((m: { phone: string }) => m.phone)
    expect(phones.indexOf(first)).toBeLessThan(phones.indexOf(second))
    expect(phones.at(-1)).toBe(second)
  })

  it('answers only callers on this machine', async () => {
    const phone = newPhone()
    await start(phone)
    const url = `/api/auth/dev/sms-outbox?phone=${encodeURIComponent(phone)}`
    for (const remoteAddress of ['192.168.1.20', '10.0.0.7', '::ffff:172.17.0.2', 'fe80::1']) {
      const res = await app.inject({ method: 'GET', url, remoteAddress })
      expect(res.statusCode, remoteAddress).toBe(404)
      expect(res.body).not.toContain(outboxCode(app, phone))
    }
    // Through the gateway the caller is the address it forwards, not the gateway's own.
    const forwarded = await app.inject({
      method: 'GET',
      url,
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '192.168.1.20' },
    })
    expect(forwarded.statusCode).toBe(404)
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await app.inject({ method: 'GET', url, remoteAddress })
      expect(res.statusCode, remoteAddress).toBe(200)
    }
  })

  it('answers a call without the key only when it names this machine and no proxy passed it on', async () => {
    const phone = newPhone()
    await start(phone)
    const url = `/api/auth/dev/sms-outbox?phone=${encodeURIComponent(phone)}`
    const status = async (headers: Record<string, string>) =>
      (await app.inject({ method: 'GET', url, headers })).statusCode
    // A rebound name reaches this service's own port from loopback too (DNS rebinding).
    expect(await status({ host: 'rebind.attacker.example:8081' })).toBe(404)
    // Through the gateway: the host the caller named.
    expect(await status({ 'x-forwarded-host': 'rebind.attacker.example:8080' })).toBe(404)
    for (const host of ['localhost:8080', '127.0.0.1:18080', '[::1]:8080'])
      expect(await status({ 'x-forwarded-host': host }), host).toBe(200)
    // A proxy on this machine that says it passed the request on.
    const marks: Record<string, string>[] = [
      { via: '1.1 squid' },
      { forwarded: 'for=192.168.1.20' },
      { 'x-real-ip': '127.0.0.1' },
      { 'x-forwarded-port': '5173' },
      { 'x-forwarded-server': 'devbox' },
    ]
    for (const mark of marks) expect(await status(mark), JSON.stringify(mark)).toBe(404)
  })

  it('answers with its key from anywhere, and only with it when DEV_OUTBOX_ACCESS=key', async () => {
    const key = 'a-per-start-key-0123456789'
    const strict = await authService({ DEV_OUTBOX_KEY: key, DEV_OUTBOX_ACCESS: 'key' })
    try {
      const phone = newPhone()
      await post(strict, '/api/auth/phone/start', { phone })
      const url = `/api/auth/dev/sms-outbox?phone=${encodeURIComponent(phone)}`
      const status = async (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
        (await strict.inject({ method: 'GET', url, headers, remoteAddress })).statusCode
      expect(await status({})).toBe(404)
      expect(await status({ 'x-dev-outbox-key': `${key}0` })).toBe(404)
      expect(await status({ 'x-dev-outbox-key': key.slice(1) })).toBe(404)
      expect(await status({ 'x-dev-outbox-key': key })).toBe(200)
      // The key is what no proxy can add: whoever holds it read it on this machine.
      expect(await status({ 'x-dev-outbox-key': key, via: '1.1 vite' }, '192.168.1.20')).toBe(200)
    } finally {
      await strict.close()
    }
  })

  it('does not exist in production', async () => {
    const prod = await authService({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://crv.example.org',
      ALLOW_CONSOLE_SMS: 'true',
    })
    const res = await prod.inject({ method: 'GET', url: '/api/auth/dev/sms-outbox' })
    expect(res.statusCode).toBe(404)
    await prod.close()
  })
})

describe('send limits under concurrent starts', () => {
  const statuses = (responses: { statusCode: number }[]) =>
    responses.map((r) => r.statusCode).sort((a, b) => a - b)

  it('sends one code when 30 starts for one number arrive at once', async () => {
    const phone = newPhone()
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => post(app, '/api/auth/phone/start', { phone })),
    )
    expect(statuses(responses)).toEqual([202, ...Array<number>(29).fill(429)])
  })

  it('keeps the per-address cap when 40 starts to different numbers arrive at once', async () => {
    const ip = randomIp()
    const responses = await Promise.all(
      Array.from({ length: 40 }, () =>
        post(app, '/api/auth/phone/start', { phone: newPhone() }, {}, ip),
      ),
    )
    // PHONE_SENDS_PER_IP_PER_HOUR is 20 by default.
    expect(statuses(responses)).toEqual([
      ...Array<number>(20).fill(202),
      ...Array<number>(20).fill(429),
    ])
  })
})

describe('send limits after a sign-in', () => {
  it('let a number that just signed in ask for a new code at once', async () => {
    const phone = newPhone()
    await signIn(app, phone)
    expect((await start(phone)).statusCode).toBe(202)
  })

  it('do not count an address’s successful sign-ins against it', async () => {
    const ip = randomIp()
    for (let i = 0; i < 25; i++) {
      const phone = newPhone()
      expect((await start(phone, ip)).statusCode).toBe(202)
      expect((await verify(phone, outboxCode(app, phone))).statusCode).toBe(200)
    }
  })
})
