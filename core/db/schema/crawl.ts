/**
 * Crawl, batch scrape and webhook tables (migration 0003_crawl.sql). `crawl_jobs` holds a crawl's
 * options and shared counters beside its `jobs` row; `crawl_urls` has one row per distinct URL (the
 * primary key on `(job_id, url_key)` is what makes each page scraped once whatever its spelling);
 * `webhook_deliveries` is the outbox of webhook events with their attempts in `webhook_attempts`.
 */
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

export const CRAWL_URL_STATUSES = [
  'backlog', // discovered, waiting for a concurrency slot of the crawl
  'queued', // handed to the queue
  'active', // claimed by a worker (lease_until)
  'done', // scraped; `seq` is its completion order
  'failed', // scrape failed (error_code, error)
  'excess', // beyond `limit`; promoted when a failed page frees a slot
  'robots', // blocked by robots.txt
  'skipped', // not scraped, with an error record (EXTERNAL_LINK, redirect out of scope)
  'alias', // the final URL of another row's redirect
  'duplicate', // redirected onto a URL already seen: dropped silently
  'dropped', // still in the backlog when the crawl was cancelled
] as const;
export type CrawlUrlStatus = (typeof CRAWL_URL_STATUSES)[number];

export const crawlJobs = pgTable(
  'crawl_jobs',
  {
    id: text('id').primaryKey(),
    teamId: text('team_id').notNull(),
    kind: text('kind', { enum: ['crawl', 'batch_scrape'] }).notNull(),
    /** running | cancelled | finished */
    state: text('state').notNull().default('running'),
    options: jsonb('options').$type<Record<string, unknown>>().notNull(),
    concurrency: integer('concurrency').notNull(),
    delayMs: integer('delay_ms').notNull().default(0),
    urlLimit: integer('url_limit').notNull(),
    /** Rows counting toward `limit` (backlog, queued, active, done). */
    accepted: integer('accepted').notNull().default(0),
    excess: integer('excess').notNull().default(0),
    /** Pages done so far; also the `seq` of the latest one. */
    doneCount: integer('done_count').notNull().default(0),
    /** Pages done or failed (drives `delay`). */
    finishedCount: integer('finished_count').notNull().default(0),
    creditsUsed: integer('credits_used').notNull().default(0),
    /** Batch: ordinal of the next appended URL. */
    nextOrdinal: integer('next_ordinal').notNull().default(0),
    /** Crawl discovery start: pending | running | done. */
    kickoff: text('kickoff').notNull().default('pending'),
    kickoffLease: timestamp('kickoff_lease', { withTimezone: true }),
    startError: jsonb('start_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('crawl_jobs_state_idx').on(t.state)],
);

export const crawlUrls = pgTable(
  'crawl_urls',
  {
    jobId: text('job_id').notNull(),
    urlKey: text('url_key').notNull(),
    /** Scrape id: also the document id. */
    id: text('id').notNull(),
    url: text('url').notNull(),
    sourceUrl: text('source_url').notNull(),
    depth: integer('depth').notNull().default(0),
    external: boolean('external').notNull().default(false),
    status: text('status', { enum: CRAWL_URL_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    enqueues: integer('enqueues').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    enqueuedAt: timestamp('enqueued_at', { withTimezone: true }),
    seq: integer('seq'),
    errorCode: text('error_code'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.urlKey] }),
    uniqueIndex('crawl_urls_id_idx').on(t.id),
    index('crawl_urls_job_status_idx').on(t.jobId, t.status, t.depth, t.id),
    // 0007: the window (queued, active) and the backlog, read by crawl_advance on every page.
    index('crawl_urls_window_idx').on(t.jobId).where(sql`status IN ('queued', 'active')`),
    index('crawl_urls_backlog_idx').on(t.jobId, t.depth, t.id).where(sql`status = 'backlog'`),
    uniqueIndex('crawl_urls_job_seq_idx').on(t.jobId, t.seq).where(sql`seq IS NOT NULL`),
  ],
);

export const crawlRobots = pgTable(
  'crawl_robots',
  {
    jobId: text('job_id').notNull(),
    origin: text('origin').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.origin] })],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    teamId: text('team_id').notNull(),
    key: text('key').notNull(),
    jobId: text('job_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.key] })],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    /** The payload's `webhookId`, reused on retries. */
    id: text('id').notNull().unique(),
    jobId: text('job_id').notNull(),
    teamId: text('team_id').notNull(),
    event: text('event').notNull(),
    url: text('url').notNull(),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    /** The exact bytes sent (and signed). */
    body: text('body').notNull(),
    /** pending | delivered | failed */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_deliveries_pending_idx').on(t.status, t.nextAttemptAt), index('webhook_deliveries_job_idx').on(t.jobId, t.seq)],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    deliveryId: text('delivery_id').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);

export const webhookSenders = pgTable('webhook_senders', {
  jobId: text('job_id').primaryKey(),
  leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
});
