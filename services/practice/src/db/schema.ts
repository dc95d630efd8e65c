import { sql } from 'drizzle-orm'
import {
  bigint,
  bit,
  boolean,
  customType,
  doublePrecision,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { fromPostgresTimestamp } from '@crv/kit/db'
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'

// Mirrors migrations/ (the SQL there is what creates the tables, their checks and indexes).
export const practice = pgSchema('practice')

/**
 * A `timestamptz` as a Date, read by the kit's reader: Drizzle's own date mode hands the text to
 * Date's parser, which misreads years below 100 (see @crv/kit's timestamps.ts).
 */
const at = customType<{ data: Date; driverData: string | Date }>({
  dataType: () => 'timestamp with time zone',
  fromDriver: (value) => fromPostgresTimestamp(value),
  toDriver: (value) => value.toISOString(),
})
const now = sql`now()`

/** Licences a target may carry (the contract's enum; the CHECK of migration 0005 holds it). */
type TargetLicence = components['schemas']['PracticeLicence']
/** Licences a contribution may carry (the CHECK of migration 0006): not 'own'. */
type ContributionLicence = Exclude<TargetLicence, 'own'>

export const pools = practice.table('pools', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull().unique(),
  createdAt: at('created_at').notNull().default(now),
  /** Bumped by the targets' triggers (migration 0007). */
  targetsVersion: bigint('targets_version', { mode: 'number' }).notNull().default(1),
})

export const targets = practice.table('targets', {
  id: uuid('id').primaryKey().defaultRandom(),
  poolId: uuid('pool_id')
    .notNull()
    .references(() => pools.id),
  slug: text('slug').unique(),
  title: text('title').notNull(),
  feedback: text('feedback').notNull(),
  tags: text('tags')
    .array()
    .notNull()
    .default(sql`'{}'`),
  licence: text('licence').$type<TargetLicence>().notNull(),
  source: text('source').notNull().default(''),
  attribution: text('attribution'),
  frontloading: text('frontloading'),
  imageKey: text('image_key').notNull().unique(),
  imageSha256: text('image_sha256').notNull(),
  retiredAt: at('retired_at'),
  deletedAt: at('deleted_at'),
  createdAt: at('created_at').notNull().default(now),
  phash: bit('phash', { dimensions: 64 }),
  phashFlat: boolean('phash_flat'),
  contributedBy: text('contributed_by'),
  tagKappa: doublePrecision('tag_kappa'),
})

export const series = practice.table('series', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id').notNull(),
  declaredAt: at('declared_at').notNull().default(now),
  sessions: integer('sessions').notNull(),
  candidateCount: integer('candidate_count').notNull(),
  judging: text('judging', { enum: ['self', 'analytic'] }).notNull(),
})

export const sessions = practice.table('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id').notNull(),
  poolId: uuid('pool_id')
    .notNull()
    .references(() => pools.id),
  targetId: uuid('target_id')
    .notNull()
    .references(() => targets.id),
  trn: text('trn').notNull(),
  nonce: text('nonce').notNull(),
  commitment: text('commitment').notNull(),
  candidateCount: integer('candidate_count').notNull(),
  frontloading: text('frontloading'),
  startedAt: at('started_at').notNull().default(now),
  lstHours: doublePrecision('lst_hours'),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
  writeUp: jsonb('write_up')
    .$type<Record<string, unknown>>()
    .notNull()
    .default(sql`'{}'`),
  revision: integer('revision').notNull().default(0),
  updatedAt: at('updated_at').notNull().default(now),
  lockedAt: at('locked_at'),
  writeUpSha256: text('write_up_sha256'),
  candidates: uuid('candidates').array(),
  judgedAt: at('judged_at'),
  ranking: uuid('ranking').array(),
  rank: integer('rank'),
  score: jsonb('score').$type<Record<string, unknown>>(),
  candidateCommitment: text('candidate_commitment'),
  abandonedAt: at('abandoned_at'),
  lockLstHours: doublePrecision('lock_lst_hours'),
  analyticRank: integer('analytic_rank'),
  chanceFigureOfMerit: doublePrecision('chance_figure_of_merit'),
  seriesId: uuid('series_id').references(() => series.id),
  familiarity: text('familiarity', { enum: ['unseen', 'rested', 'recent'] }).notNull(),
  lastShownAt: at('last_shown_at'),
})

/** When each picture was last shown to each viewer (migration 0004). */
export const seen = practice.table(
  'seen',
  {
    userId: text('user_id').notNull(),
    targetId: uuid('target_id')
      .notNull()
      .references(() => targets.id),
    lastShownAt: at('last_shown_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.targetId] })],
)

export const seedState = practice.table('seed_state', {
  id: integer('id').primaryKey(),
  dataHash: text('data_hash').notNull(),
  seededAt: at('seeded_at').notNull().default(now),
})

export const pendingImages = practice.table('pending_images', {
  imageKey: text('image_key').primaryKey(),
  createdAt: at('created_at').notNull().default(now),
})

/** Contributions' times stay as PostgreSQL prints them: their rows carry them as text. */
const atText = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' })

export const contributions = practice.table('contributions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id').notNull(),
  title: text('title').notNull(),
  feedback: text('feedback').notNull(),
  ownWork: boolean('own_work').notNull(),
  licence: text('licence').$type<ContributionLicence>().notNull(),
  source: text('source').notNull().default(''),
  attribution: text('attribution'),
  imageKey: text('image_key').notNull().unique(),
  imageSha256: text('image_sha256').notNull(),
  phash: bit('phash', { dimensions: 64 }).notNull(),
  phashFlat: boolean('phash_flat').notNull(),
  tags: text('tags').array().notNull(),
  secondTags: text('second_tags').array(),
  secondTagger: text('second_tagger'),
  secondTaggedAt: atText('second_tagged_at'),
  status: text('status', { enum: ['pending', 'in_pool', 'rejected'] })
    .notNull()
    .default('pending'),
  decidedBy: text('decided_by'),
  decidedAt: atText('decided_at'),
  rejectionReason: text('rejection_reason'),
  agreedTags: text('agreed_tags').array(),
  poolId: uuid('pool_id').references(() => pools.id),
  targetId: uuid('target_id').references(() => targets.id, { onDelete: 'set null' }),
  createdAt: atText('created_at').notNull().defaultNow(),
})

/** The database or one of its transactions: what a repository function runs its statements on. */
export type Queryable = Database | Parameters<Parameters<Database['transaction']>[0]>[0]
