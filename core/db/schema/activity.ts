/**
 * `team_activity` (migration 0013_privacy_activity, issue 17): the audit list of a team's work for
 * GET /v2/team/activity. No foreign key to teams, as for `jobs`: rows outlive key and team changes.
 */
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const teamActivity = pgTable(
  'team_activity',
  {
    /** The scrape, crawl, batch, map, search or parse id. */
    id: text('id').primaryKey(),
    teamId: text('team_id').notNull(),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    /** Null for zero data retention work. */
    url: text('url'),
    creditsUsed: integer('credits_used').notNull().default(0),
    /** The request's `auditMetadata` (`{ username }`), or null. */
    auditMetadata: jsonb('audit_metadata').$type<{ username: string }>(),
    zeroDataRetention: boolean('zero_data_retention').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('team_activity_team_created_idx').on(t.teamId, t.createdAt, t.id)],
);
