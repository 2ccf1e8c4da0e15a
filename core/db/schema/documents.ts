/**
 * Scraped documents. `body` is the serialized Document JSON exactly as sent to clients, stored as text
 * so that every later read returns the same bytes (compat.md §3, byte stability). `job_id` groups the
 * documents of a crawl or batch scrape; a single scrape has none.
 */
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const documents = pgTable(
  'documents',
  {
    /** The scrape id (lowercase UUIDv7). */
    id: text('id').primaryKey(),
    /** Crawl or batch scrape id; null for a single scrape. */
    jobId: text('job_id'),
    teamId: text('team_id').notNull(),
    url: text('url').notNull(),
    sourceUrl: text('source_url').notNull(),
    statusCode: integer('status_code').notNull(),
    /** Serialized Document JSON, byte for byte as delivered; stored uncompressed (STORAGE EXTERNAL, migration 0022). */
    body: text('body').notNull(),
    /** UTF-8 length of `body`, bytes. */
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('documents_job_created_idx').on(t.jobId, t.createdAt),
    index('documents_expires_at_idx').on(t.expiresAt),
  ],
);

export type DocumentRow = typeof documents.$inferSelect;
export type NewDocumentRow = typeof documents.$inferInsert;
