/**
 * Jobs as users see them: one row per scrape, crawl, batch scrape, map, search, extract, agent or parse
 * request, with its options, final status data (`result`) and error. `team_id` has no foreign key on
 * purpose: jobs are high-volume and outlive key and team changes; they are pruned by `expires_at`.
 */
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { SerializedError } from '../../errors.ts';

export const JOB_KINDS = ['scrape', 'crawl', 'batch_scrape', 'map', 'search', 'extract', 'agent', 'parse'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const jobs = pgTable(
  'jobs',
  {
    /** Lowercase UUIDv7 (core/ids.ts). */
    id: text('id').primaryKey(),
    teamId: text('team_id').notNull(),
    kind: text('kind', { enum: JOB_KINDS }).notNull(),
    /** Kind-specific status word (`scraping`, `completed`, `failed`, `cancelled` ...). */
    status: text('status').notNull(),
    url: text('url'),
    /** Resolved request options. */
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    /** Final status data, e.g. the body of a completed status response. */
    result: jsonb('result'),
    error: jsonb('error').$type<SerializedError>(),
    creditsUsed: integer('credits_used').notNull().default(0),
    zeroDataRetention: boolean('zero_data_retention').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [index('jobs_team_created_idx').on(t.teamId, t.createdAt), index('jobs_expires_at_idx').on(t.expiresAt)],
);

export type Job = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;
