import type { Database } from '@crv/kit/db'
import { sql } from 'drizzle-orm'
import {
  bigserial,
  check,
  index,
  integer,
  pgSchema,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'

// Mirrors migrations/ (the SQL there is what creates the tables).
export const media = pgSchema('media')

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

// migrations/0001_images.sql
export const tachistoscopeImages = media.table(
  'tachistoscope_images',
  {
    id: uuid('id').primaryKey(),
    seq: bigserial('seq', { mode: 'number' }).notNull().unique('tachistoscope_images_seq_key'),
    category: text('category', { enum: ['random', 'people'] }).notNull(),
    /** Display only: the object key is the server's own. */
    filename: text('filename').notNull(),
    objectKey: text('object_key').notNull().unique('tachistoscope_images_object_key_key'),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    etag: text('etag').notNull(),
    uploadedBy: text('uploaded_by').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('tachistoscope_images_category_check', sql`${t.category} IN ('random', 'people')`),
    check('tachistoscope_images_filename_check', sql`char_length(${t.filename}) BETWEEN 1 AND 255`),
    check(
      'tachistoscope_images_content_type_check',
      sql`${t.contentType} IN ('image/jpeg', 'image/png', 'image/webp', 'image/gif')`,
    ),
    check('tachistoscope_images_width_check', sql`${t.width} > 0`),
    check('tachistoscope_images_height_check', sql`${t.height} > 0`),
    check('tachistoscope_images_bytes_check', sql`${t.bytes} > 0`),
    index('tachistoscope_images_category_idx').on(t.category, t.seq),
  ],
)

/** Objects of deleted images, removed from storage with backoff until storage confirms. */
export const tachistoscopeDeletions = media.table(
  'tachistoscope_deletions',
  {
    objectKey: text('object_key').primaryKey(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('tachistoscope_deletions_due_idx').on(t.nextAttemptAt)],
)

// migrations/0002_custom_words.sql: a row is a custom gestalt (the table keeps its name).
export const customWords = media.table(
  'custom_words',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id').notNull(),
    word: text('word').notNull(),
    /** The word's comparison key (the same word in another case is the same custom gestalt). */
    wordKey: text('word_key').notNull(),
    objectKey: text('object_key').notNull().unique('custom_words_object_key_key'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('custom_words_word_check', sql`char_length(${t.word}) BETWEEN 1 AND 30`),
    unique('custom_words_user_id_word_key_key').on(t.userId, t.wordKey),
  ],
)

/** Objects whose rows are gone, removed from storage with backoff until storage confirms. */
export const pendingObjectDeletions = media.table(
  'pending_object_deletions',
  {
    objectKey: text('object_key').primaryKey(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('pending_object_deletions_due').on(t.nextAttemptAt)],
)

// migrations/0003_tachistoscope_starter_set.sql: one row per starter picture ever stored, kept
// (image_id null) when an administrator deletes the image.
export const tachistoscopeStarterSet = media.table('tachistoscope_starter_set', {
  slug: text('slug').primaryKey(),
  imageId: uuid('image_id')
    .unique('tachistoscope_starter_set_image_id_key')
    .references(() => tachistoscopeImages.id, { onDelete: 'set null' }),
  seededAt: at('seeded_at').notNull().defaultNow(),
})

/** The database or one of its transactions: what a repository function runs its statements on. */
export type Queryable = Database | Parameters<Parameters<Database['transaction']>[0]>[0]
