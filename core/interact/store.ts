/**
 * The `interact_sessions` table (migration 0005): one row per scrape id whose interact session was
 * opened, naming the API process that holds the live page and, once ended, why. The row lets every
 * API node answer 410 for a destroyed session and 409 for a session held by another node.
 */
import type { Queryable } from '../db/client.ts';

export interface SessionRow {
  scrapeId: string;
  teamId: string;
  nodeId: string;
  status: 'open' | 'closed';
  lastActiveAt: Date;
  endReason?: string;
}

export async function getSessionRow(db: Queryable, scrapeId: string): Promise<SessionRow | undefined> {
  const rows = await db.query<Record<string, any>>(
    'select scrape_id, team_id, node_id, status, last_active_at, end_reason from interact_sessions where scrape_id = $1',
    [scrapeId],
  );
  const r = rows[0];
  return r
    ? { scrapeId: r.scrape_id, teamId: r.team_id, nodeId: r.node_id, status: r.status, lastActiveAt: new Date(r.last_active_at), endReason: r.end_reason ?? undefined }
    : undefined;
}

/** Claims the scrape's session for `nodeId`. @returns false when a row already exists */
export async function insertSessionRow(db: Queryable, scrapeId: string, teamId: string, nodeId: string): Promise<boolean> {
  const rows = await db.query(
    `insert into interact_sessions (scrape_id, team_id, node_id, status) values ($1, $2, $3, 'open') on conflict (scrape_id) do nothing returning 1`,
    [scrapeId, teamId, nodeId],
  );
  return rows.length > 0;
}

export async function touchSessionRow(db: Queryable, scrapeId: string): Promise<void> {
  await db.query(`update interact_sessions set last_active_at = now() where scrape_id = $1 and status = 'open'`, [scrapeId]);
}

export async function closeSessionRow(db: Queryable, scrapeId: string, reason: string, credits = 0): Promise<void> {
  await db.query(
    `update interact_sessions set status = 'closed', ended_at = now(), end_reason = $2, credits = $3 where scrape_id = $1 and status = 'open'`,
    [scrapeId, reason, credits],
  );
}
