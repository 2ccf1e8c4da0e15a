/**
 * API keys. Only the SHA-256 hex digest of a key is stored (`key_hash`, unique); `key_prefix` keeps the
 * first 8 characters for display. Empty `allowed_formats` / `allowed_endpoints` mean "all".
 */
import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { teams } from './teams.ts';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    /** SHA-256 of the full key, lowercase hex. */
    keyHash: text('key_hash').notNull().unique(),
    /** First 8 characters of the key, for listings. */
    keyPrefix: text('key_prefix').notNull(),
    allowedFormats: jsonb('allowed_formats').$type<string[]>().notNull().default([]),
    allowedEndpoints: jsonb('allowed_endpoints').$type<string[]>().notNull().default([]),
    isAdmin: boolean('is_admin').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_team_id_idx').on(t.teamId)],
);

export type ApiKey = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;
