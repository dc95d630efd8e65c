import { VOCABULARY_LANGUAGES } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import { sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'

// Mirrors migrations/ (the SQL there is what creates the tables).
export const descriptorsSchema = pgSchema('descriptors')

// Times stay as PostgreSQL prints them (what the repositories have always returned; the views
// read them with the kit's fromPostgresTimestamp).
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' })
// Ids stay far below 2^53.
const int8 = (name: string) => bigint(name, { mode: 'number' })

const STAGES = ['Stage 1-2', 'Stage 2-3', 'Stage 4-6'] as const
const CATEGORY_TYPES = ['gestalt', 'perception'] as const

// 0001_vocabulary.sql
export const categories = descriptorsSchema.table('categories', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  type: text('type', { enum: CATEGORY_TYPES }).notNull(),
  stage: text('stage', { enum: STAGES }).notNull(),
  position: integer('position').notNull(),
})

export const categoryNames = descriptorsSchema.table(
  'category_names',
  {
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.language] })],
)

export const concepts = descriptorsSchema.table('concepts', {
  id: serial('id').primaryKey(),
  slug: text('slug').unique(),
  categoryId: integer('category_id')
    .notNull()
    .references(() => categories.id),
  pos: text('pos', { enum: ['adjective', 'noun', 'verb'] }).notNull(),
})

export const descriptors = descriptorsSchema.table('descriptors', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  conceptId: integer('concept_id')
    .notNull()
    .references(() => concepts.id, { onDelete: 'cascade' }),
  categoryId: integer('category_id')
    .notNull()
    .references(() => categories.id),
  language: text('language', { enum: VOCABULARY_LANGUAGES }).notNull(),
  word: text('word').notNull(),
  reading: text('reading'),
  /** The word folded (lower case, no accents) for accent-insensitive search and duplicates. */
  wordKey: text('word_key').notNull(),
  status: text('status', { enum: ['system', 'approved', 'pending'] }).notNull(),
  createdBy: text('created_by'),
  isCustom: boolean('is_custom').notNull().default(false),
  createdAt: at('created_at').notNull().defaultNow(),
})

export const hidden = descriptorsSchema.table(
  'hidden',
  {
    userId: text('user_id').notNull(),
    descriptorId: int8('descriptor_id')
      .notNull()
      .references(() => descriptors.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.descriptorId] })],
)

export const seedState = descriptorsSchema.table('seed_state', {
  id: integer('id').primaryKey(),
  dataHash: text('data_hash').notNull(),
  seededAt: at('seeded_at').notNull().defaultNow(),
})

// 0002_admin.sql
export const settings = descriptorsSchema.table('settings', {
  id: integer('id').primaryKey(),
  defaultLanguage: text('default_language', { enum: ['en', 'de', 'fr', 'es', 'it'] })
    .notNull()
    .default('en'),
  defaultStage: text('default_stage', { enum: STAGES }).notNull().default('Stage 1-2'),
  tachistoscopeAccess: text('tachistoscope_access', { enum: ['admin', 'user'] })
    .notNull()
    .default('admin'),
  updatedBy: text('updated_by'),
  updatedAt: at('updated_at').notNull().defaultNow(),
})

export const adminActions = descriptorsSchema.table('admin_actions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  action: text('action', { enum: ['seed', 'optimize', 'export', 'settings'] }).notNull(),
  userId: text('user_id').notNull(),
  summary: text('summary').notNull(),
  at: at('at').notNull().defaultNow(),
})

export const analyticsEvents = descriptorsSchema.table('analytics_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** page_view, tachistoscope_start, tachistoscope_show_again, tachistoscope_complete (CHECK). */
  name: text('name').notNull(),
  path: text('path').notNull(),
  userId: text('user_id'),
  props: jsonb('props').$type<Record<string, unknown>>().notNull().default({}),
  occurredAt: at('occurred_at').notNull(),
  receivedAt: at('received_at').notNull().defaultNow(),
})

// 0003_memberships.sql
export const conceptCategories = descriptorsSchema.table(
  'concept_categories',
  {
    conceptId: integer('concept_id')
      .notNull()
      .references(() => concepts.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.conceptId, t.categoryId] })],
)

// 0004_reviews.sql
export const reviewCards = descriptorsSchema.table(
  'review_cards',
  {
    userId: text('user_id').notNull(),
    descriptorId: int8('descriptor_id')
      .notNull()
      .references(() => descriptors.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    /** ts-fsrs State: 0 new, 1 learning, 2 review, 3 relearning. */
    state: smallint('state').notNull(),
    due: at('due').notNull(),
    stability: doublePrecision('stability').notNull(),
    difficulty: doublePrecision('difficulty').notNull(),
    elapsedDays: integer('elapsed_days').notNull(),
    scheduledDays: integer('scheduled_days').notNull(),
    learningSteps: integer('learning_steps').notNull(),
    reps: integer('reps').notNull(),
    lapses: integer('lapses').notNull(),
    lastReview: at('last_review'),
    firstReview: at('first_review').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.descriptorId] })],
)

export const reviewAnswers = descriptorsSchema.table(
  'review_answers',
  {
    userId: text('user_id').notNull(),
    id: uuid('id').notNull(),
    descriptorId: int8('descriptor_id')
      .notNull()
      .references(() => descriptors.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    rating: smallint('rating').notNull(),
    /** The card's state just before this answer. */
    state: smallint('state').notNull(),
    answeredAt: at('answered_at').notNull(),
    durationMs: integer('duration_ms'),
    receivedAt: at('received_at').notNull().defaultNow(),
    // 0006_review_checkpoints.sql: the card this answer left (all nine or none).
    afterState: smallint('after_state'),
    afterDue: at('after_due'),
    afterStability: doublePrecision('after_stability'),
    afterDifficulty: doublePrecision('after_difficulty'),
    afterElapsedDays: integer('after_elapsed_days'),
    afterScheduledDays: integer('after_scheduled_days'),
    afterLearningSteps: integer('after_learning_steps'),
    afterReps: integer('after_reps'),
    afterLapses: integer('after_lapses'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] })],
)

// 0005_history.sql
export const trainingSessions = descriptorsSchema.table(
  'training_sessions',
  {
    userId: text('user_id').notNull(),
    id: uuid('id').notNull(),
    activity: text('activity', { enum: ['ideogram', 'descriptors', 'tachistoscope'] }).notNull(),
    startedAt: at('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    receivedAt: at('received_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] })],
)

/**
 * A bigint column read as the driver hands it over (its decimal text), for the reads that have
 * always returned it so.
 */
export const int8Text = (column: AnyPgColumn) => sql<string>`${column}`

/** The database or one of its transactions: what a repository function runs its statements on. */
export type Queryable = Database | Parameters<Parameters<Database['transaction']>[0]>[0]
