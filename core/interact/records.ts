/**
 * Scrape records (`scrape_records`, migration 0005): what a later call needs to know about a scrape
 * besides its document. Interact replays a scrape from its record (URL and resolved options, compat.md
 * §5); a zero data retention scrape leaves only a tombstone (team, no URL, no options), so
 * `GET /v2/scrape/{id}` can answer 400 "nothing was stored" instead of 404 (compat.md §4), and
 * interact answers 409 (not replayable). Records expire with the documents (24 h).
 */
import type { Queryable } from '../db/client.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import { keepsNoData } from '../privacy/retention.ts';
import { rowAdditive } from '../store/sql-merge.ts';

/** Records live as long as job results (interface.md Limits: 24 h). */
export const RECORD_RETENTION_MS = 24 * 3600 * 1000;

export interface ScrapeRecord {
  id: string;
  teamId: string;
  zeroDataRetention: boolean;
  /** Normalized URL; undefined for zero data retention. */
  url?: string;
  sourceUrl?: string;
  options?: ScrapeOptions;
  expiresAt: Date;
}

const INSERT_RECORD = rowAdditive(`insert into scrape_records (id, team_id, zero_data_retention, url, source_url, options, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7) on conflict (id) do nothing`);

/** Records a finished scrape (idempotent per id). Zero data retention keeps only the tombstone. */
export async function saveScrapeRecord(
  db: Queryable,
  r: { id: string; teamId: string; url: string; sourceUrl: string; options: ScrapeOptions },
): Promise<void> {
  const zdr = keepsNoData(r.options); // lockdown too: a tombstone only
  await db.query(
    INSERT_RECORD,
    [r.id, r.teamId, zdr, zdr ? null : r.url, zdr ? null : r.sourceUrl, zdr ? null : r.options, new Date(Date.now() + RECORD_RETENTION_MS)],
  );
}

/** A live record, or undefined. */
export async function getScrapeRecord(db: Queryable, id: string): Promise<ScrapeRecord | undefined> {
  const rows = await db.query<Record<string, any>>(
    'select id, team_id, zero_data_retention, url, source_url, options, expires_at from scrape_records where id = $1 and expires_at > now()',
    [id],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    teamId: r.team_id,
    zeroDataRetention: r.zero_data_retention,
    url: r.url ?? undefined,
    sourceUrl: r.source_url ?? undefined,
    options: r.options ?? undefined,
    expiresAt: new Date(r.expires_at),
  };
}

/** Deletes expired records and closed interact sessions older than a day (scheduler). */
export async function sweepRecords(db: Queryable): Promise<void> {
  await db.query('delete from scrape_records where expires_at < now()');
  await db.query(`delete from interact_sessions where status = 'closed' and ended_at < now() - interval '1 day'`);
}
