import type { Database } from '@crv/kit/db'
import {
  bigserial,
  boolean,
  integer,
  pgSchema,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'

// Mirrors migrations/ (the SQL there is what creates the tables).
export const auth = pgSchema('auth')

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const users = auth.table('users', {
  id: text('id').primaryKey(),
  displayName: text('display_name').notNull(),
  firstName: text('first_name').notNull(),
  email: text('email'),
  phone: text('phone').unique(),
  photoUrl: text('photo_url'),
  role: text('role', { enum: ['user', 'admin'] })
    .notNull()
    .default('user'),
  createdAt: at('created_at').notNull().defaultNow(),
  lastSignInAt: at('last_sign_in_at'),
})

export const identities = auth.table(
  'identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] })],
)

export const phoneCodes = auth.table('phone_codes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  phone: text('phone').notNull(),
  codeHash: text('code_hash').notNull(),
  /** The sender as the per-client cap counts it (`clientKey`: an IPv6 sender's /64). */
  ip: text('ip').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
  expiresAt: at('expires_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
  consumedAt: at('consumed_at'),
  burned: boolean('burned').notNull().default(false),
  verifiedAt: at('verified_at'),
})

export const refreshTokens = auth.table('refresh_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  familyId: text('family_id').notNull(),
  userId: text('user_id').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
  expiresAt: at('expires_at').notNull(),
  rotatedAt: at('rotated_at'),
  revokedAt: at('revoked_at'),
  /** When the rotated token came back within the grace period (once) for its successor again. */
  graceUsedAt: at('grace_used_at'),
})

export type UserRow = typeof users.$inferSelect

// Mirrors migrations/0002_oidc_logins.sql.
export const oidcLogins = auth.table('oidc_logins', {
  stateHash: text('state_hash').primaryKey(),
  browserHash: text('browser_hash').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  mode: text('mode', { enum: ['popup', 'redirect'] }).notNull(),
  returnTo: text('return_to').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
  expiresAt: at('expires_at').notNull(),
})

export const revokedTokens = auth.table('revoked_tokens', {
  /** `user:<id>` (account deleted) or `session:<refresh-token family>` (signed out). */
  subject: text('subject').primaryKey(),
  expiresAt: at('expires_at').notNull(),
})

/** The database or one of its transactions: what a repository function runs its statements on. */
export type Queryable = Database | Parameters<Parameters<Database['transaction']>[0]>[0]
