/**
 * `model_usage` (migration 0016_llm, issue 18): one row per language-model call, with its tokens, for
 * the token-usage endpoints (core/llm/usage.ts). No foreign key to teams, as for `jobs`.
 */
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const modelUsage = pgTable(
  'model_usage',
  {
    id: text('id').primaryKey(),
    teamId: text('team_id').notNull(),
    /** The key that asked (undefined: keyless, auth off, admin). */
    apiKeyId: text('api_key_id'),
    /** Scrape, crawl or batch id the call belongs to, when known. */
    jobId: text('job_id'),
    /** What the call was for (`format:json`, `crawl:prompt` …). */
    purpose: text('purpose').notNull(),
    /** The model that answered. */
    model: text('model').notNull(),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    /** The server reported no usage: tokens estimated from characters. */
    estimated: boolean('estimated').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('model_usage_team_created_idx').on(t.teamId, t.createdAt)],
);
