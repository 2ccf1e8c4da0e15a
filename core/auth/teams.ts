/**
 * Team settings that admission and the workers read on every request or job: the concurrency limit
 * and whether zero data retention is enabled. Cached per process like key lookups (at most
 * `accounts.authCacheMs`, so admin changes apply within a minute). Balances are never cached: they
 * are read fresh by core/credits.
 */
import type { Database } from '../db/client.ts';

export interface TeamSettings {
  id: string;
  name: string;
  /** Scrapes the team may run at once across all processes (compat.md §18.2). */
  concurrency: number;
  /** Zero data retention allowed for this team (interface.md scrape `zeroDataRetention`). */
  zdrEnabled: boolean;
}

const caches = new WeakMap<Database, Map<string, { team: TeamSettings | null; at: number }>>();

/**
 * A team's settings, or null for an unknown team.
 * @param ttlMs how long a read may be reused, ms
 * @throws the database error when the team cannot be read
 */
export async function teamSettings(db: Database, teamId: string, ttlMs: number): Promise<TeamSettings | null> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(teamId);
  if (hit && Date.now() - hit.at < ttlMs) return hit.team;
  const rows = await db.query<{ id: string; name: string; concurrency: number; zdr_enabled: boolean }>(
    'select id, name, concurrency, zdr_enabled from teams where id = $1',
    [teamId],
  );
  const r = rows[0];
  const team = r ? { id: r.id, name: r.name, concurrency: Number(r.concurrency), zdrEnabled: Boolean(r.zdr_enabled) } : null;
  if (ttlMs > 0) {
    if (cache.size >= 10_000) cache.clear();
    cache.set(teamId, { team, at: Date.now() });
  }
  return team;
}

/** Forgets cached team settings of `db` (after admin changes in the same process). */
export function clearTeamCache(db: Database): void {
  caches.get(db)?.clear();
}
