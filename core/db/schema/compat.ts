/**
 * Compatibility state (migration 0012_compat_scrape_resume, issue 25): `scrape_resumes`, the scrapes
 * that answered 408 `processing_continues` and keep running, by the key of the request that started
 * them (core/jobs/scrape-resume.ts), so an identical repeat joins the job (compat.md §4).
 */
import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const scrapeResumes = pgTable(
  'scrape_resumes',
  {
    /** sha256 hex of the team, the key and the request body. */
    requestKey: text('request_key').primaryKey(),
    scrapeId: text('scrape_id').notNull(),
    teamId: text('team_id').notNull(),
    /** The job's own deadline: after it the job has ended one way or the other. */
    runUntil: timestamp('run_until', { withTimezone: true }).notNull(),
    /** After this the row is ignored and pruned. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('scrape_resumes_expires_at_idx').on(t.expiresAt)],
);
