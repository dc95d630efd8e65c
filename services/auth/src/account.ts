// An account's export and deletion across the services that keep a user's data. Each service
// owns its part (`GET`/`DELETE /api/account/{part}`) and is called with the caller's own token,
// so no service trusts another with more than the user could do themselves.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { eq, sql } from 'drizzle-orm'
import { AppError, unauthorized } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { components } from '@crv/contracts'
import type { AuthServices } from './app.ts'
import { clearCookie } from './sessions.ts'
import { identities, users } from './schema.ts'
import { findUser, toApiUser } from './users.ts'
import { revoke, userSubject } from './revocations.ts'

type Export = components['schemas']['AccountExport']
const PARTS = ['descriptors', 'media', 'practice'] as const
type Part = (typeof PARTS)[number]

const TIMEOUT_MS = 15_000

const partUnavailable = (part: Part) =>
  new AppError(
    'account_part_unavailable',
    503,
    `Your ${part} data cannot be reached right now. Nothing else was changed; please try again in a moment.`,
  )

export function accountHandlers(
  services: AuthServices,
): Pick<Handlers, 'exportAccount' | 'deleteAccount'> {
  const { config, db, session, revocations } = services
  const baseOf: Record<Part, string> = {
    descriptors: config.DESCRIPTORS_URL,
    media: config.MEDIA_URL,
    practice: config.PRACTICE_URL,
  }

  /** Calls a service's part with the caller's token; a failure is a 503 naming the part. */
  async function callPart(part: Part, method: 'GET' | 'DELETE', authorization: string) {
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

  const signedIn = (request: FastifyRequest) => {
    const authorization = request.headers.authorization
    if (!request.user || !authorization) throw unauthorized()
    return { user: request.user, authorization }
  }

  return {
    exportAccount: async (request: FastifyRequest, reply: FastifyReply) => {
      const { user, authorization } = signedIn(request)
      const row = await findUser(db, user.id)
      if (!row) throw new AppError('account_not_found', 401, 'This account no longer exists')
      const [linked, descriptors, media, practice] = await Promise.all([
        db.select().from(identities).where(eq(identities.userId, user.id)),
        callPart('descriptors', 'GET', authorization),
        callPart('media', 'GET', authorization),
        callPart('practice', 'GET', authorization),
      ])
      const now = new Date()
      const body: Export = {
        format: 'crv-training-account/1',
        exportedAt: now.toISOString(),
        account: {
          user: toApiUser(row),
          identities: linked.map((i) => ({
            issuer: i.issuer,
            subject: i.subject,
            linkedAt: i.createdAt.toISOString(),
          })),
        },
        descriptors: descriptors as Export['descriptors'],
        media: media as Export['media'],
        practice: practice as Export['practice'],
      }
      reply.header(
        'content-disposition',
        `attachment; filename="crv-training-account-${now.toISOString().slice(0, 10)}.json"`,
      )
      reply.header('cache-control', 'no-store')
      return body
    },

    deleteAccount: async (request: FastifyRequest, reply: FastifyReply) => {
      const { user, authorization } = signedIn(request)
      // A revoked token may call again (see app.ts): an account already gone is done; a
      // signed-out token deletes nothing.
      if (!(await findUser(db, user.id)) && (await revocations('', user))) {
        clearCookie(session, reply)
        return reply.code(204).send()
      }
      if (await revocations('', user)) throw unauthorized()
      // The parts first, one by one: if one fails the account stays, so the user can sign in
      // and ask again (each part's deletion is idempotent).
      for (const part of PARTS) await callPart(part, 'DELETE', authorization)
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(users).where(eq(users.id, user.id))
        if (row?.phone)
          await tx.execute(sql`DELETE FROM auth.phone_codes WHERE phone = ${row.phone}`)
        // Identities and refresh tokens go with the user (ON DELETE CASCADE); the access
        // tokens stop writing, on every service, from this commit.
        await tx.delete(users).where(eq(users.id, user.id))
        await revoke(tx, [userSubject(user.id)], config.ACCESS_TOKEN_TTL_SECONDS)
      })
      clearCookie(session, reply)
      return reply.code(204).send()
    },
  }
}
