import { execFile } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { testDatabaseUrl } from '@crv/kit/testing'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../', import.meta.url))
const admin = (...args: string[]) =>
  run(process.execPath, ['scripts/admin.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: testDatabaseUrl() },
  })
const db = new pg.Pool({ connectionString: testDatabaseUrl(), max: 1 })
afterAll(() => db.end())

const roleOf = async (phone: string) =>
  (await db.query<{ role: string }>('SELECT role FROM auth.users WHERE phone = $1', [phone]))
    .rows[0]?.role

describe('npm run admin', { timeout: 30_000 }, () => {
  it('grants, lists and revokes the administrator role by phone, creating the account if needed', async () => {
    const digits = String(randomInt(0, 10_000_000)).padStart(7, '0')
    const phone = `+1555${digits}`
    const granted = await admin('grant', `+1 555 ${digits}`)
    expect(granted.stdout).toMatch(/is now an administrator/)
    expect(await roleOf(phone)).toBe('admin')
    expect((await admin('list')).stdout).toContain(phone)
    await admin('revoke', phone)
    expect(await roleOf(phone)).toBe('user')
    expect((await admin('list')).stdout).not.toContain(phone)
  })

  it('grants by e-mail, case-insensitively', async () => {
    const email = `Admin.${randomInt(0, 1e9)}@Example.org`
    await admin('grant', email)
    const rows = await db.query('SELECT role FROM auth.users WHERE lower(email) = lower($1)', [
      email,
    ])
    expect(rows.rows).toEqual([{ role: 'admin' }])
    await admin('grant', email.toLowerCase())
    expect(
      (
        await db.query('SELECT count(*)::int AS n FROM auth.users WHERE lower(email) = lower($1)', [
          email,
        ])
      ).rows[0].n,
    ).toBe(1)
  })

  it('explains its usage and refuses a bad number', async () => {
    await expect(admin('promote', 'x')).rejects.toMatchObject({
      stderr: expect.stringMatching(/usage: npm run admin/),
    })
    await expect(admin('grant', '555')).rejects.toMatchObject({
      stderr: expect.stringMatching(/valid phone number/),
    })
  })
})
