/**
 * Scrape state tables (migration 0005_scrape, issue 3):
 * - `scrape_cache`: serialized Documents by cache key (core/cache), for `maxAge`, `minAge`, `lockdown`;
 * - `browser_profiles`: named persistent browser state per team (core/profiles), with the lock that
 *   lets only one saving session use a profile at a time;
 * - `blobs`: screenshots and PDFs when `DATABASE_URL` is set (core/blob-stores/database.ts);
 * - `scrape_records`: the URL and options of each scrape so interact can replay it; a row without
 *   them marks a zero data retention scrape (GET answers 400 instead of 404);
 * - `interact_sessions`: one row per interact session (core/interact), so a destroyed session answers
 *   410 on every API node.
 */
import { boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

export const scrapeCache = pgTable(
  'scrape_cache',
  {
    id: text('id').primaryKey(),
    /** sha256 hex of the normalized URL and every option that changes the output (core/cache/key.ts). */
    cacheKey: text('cache_key').notNull(),
    /** Normalized URL (for operators; never used to look up). */
    url: text('url').notNull(),
    statusCode: integer('status_code').notNull(),
    /** Serialized Document as scraped, before per-scrape fields (scrapeId, credits) are stamped. */
    body: text('body').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    cachedAt: timestamp('cached_at', { withTimezone: true }).notNull().defaultNow(),
    /** After this the entry is never served (blob URLs inside it expire, or the retention ended). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('scrape_cache_key_idx').on(t.cacheKey, t.cachedAt), index('scrape_cache_expires_at_idx').on(t.expiresAt)],
);

export const browserProfiles = pgTable(
  'browser_profiles',
  {
    teamId: text('team_id').notNull(),
    /** interface.md `profile.name`: 1 to 128 characters. */
    name: text('name').notNull(),
    /** `{ cookies, origins: [{ origin, localStorage: [[key, value]] }] }` (core/plugin.ts ProfileState). */
    state: jsonb('state'),
    sizeBytes: integer('size_bytes').notNull().default(0),
    /** Id of the saving session that holds the profile (a scrape id), or null. */
    lockHolder: text('lock_holder'),
    lockExpiresAt: timestamp('lock_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.name] })],
);

export const blobs = pgTable(
  'blobs',
  {
    key: text('key').primaryKey(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('blobs_expires_at_idx').on(t.expiresAt)],
);

export const scrapeRecords = pgTable(
  'scrape_records',
  {
    /** The scrape id. */
    id: text('id').primaryKey(),
    teamId: text('team_id').notNull(),
    zeroDataRetention: boolean('zero_data_retention').notNull().default(false),
    /** Normalized URL scraped; null for zero data retention. */
    url: text('url'),
    sourceUrl: text('source_url'),
    /** Resolved scrape options; null for zero data retention. */
    options: jsonb('options'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('scrape_records_expires_at_idx').on(t.expiresAt)],
);

export const INTERACT_STATUSES = ['open', 'closed'] as const;

export const interactSessions = pgTable('interact_sessions', {
  scrapeId: text('scrape_id').primaryKey(),
  teamId: text('team_id').notNull(),
  /** The API process holding the live browser page. */
  nodeId: text('node_id').notNull(),
  status: text('status', { enum: INTERACT_STATUSES }).notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  /** `deleted`, `idle`, `max-duration`, `shutdown`, `browser-failure`. */
  endReason: text('end_reason'),
  credits: integer('credits').notNull().default(0),
});
