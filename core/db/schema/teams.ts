/**
 * Teams: who owns API keys, jobs and documents, with their remaining credits and how many jobs they may
 * run at once. With `TRAWL_AUTH=off` a single default team is used.
 */
import { jsonb, bigint, boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const teams = pgTable('teams', {
  /** UUID as text. */
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Remaining credit balance (interface.md, Credits). */
  credits: bigint('credits', { mode: 'number' }).notNull(),
  /** Jobs the team may run at once. */
  concurrency: integer('concurrency').notNull(),
  /** Zero data retention: documents of this team are not kept after delivery. */
  zdrEnabled: boolean('zdr_enabled').notNull().default(false),
  /** Key of the team's webhook signatures, generated on first use (migration 0011; core/webhooks/team-secret.ts). */
  webhookSecret: text('webhook_secret'),
  /** threatProtection team policy (migration 0014_privacy_threat; core/threat/policy.ts), or null. */
  threatPolicy: jsonb('threat_policy').$type<Record<string, unknown>>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type Team = typeof teams.$inferSelect;
export type NewTeam = typeof teams.$inferInsert;
