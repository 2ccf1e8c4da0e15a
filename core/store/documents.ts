/**
 * Stored documents: each finished Document is serialized once and that exact text is what every
 * later read returns (compat.md §3 stability rule). Zero-data-retention scrapes are never stored.
 */
import type { Database, Queryable } from '../db/client.ts';
import { rowAdditive } from './sql-merge.ts';

/** Job results are kept 24 h after completion (interface.md Limits). */
export const RETENTION_MS = 24 * 3600 * 1000;

export interface StoredDocument {
  id: string;
  jobId: string | null;
  teamId: string;
  url: string;
  sourceUrl: string;
  statusCode: number;
  /** The serialized Document. */
  body: string;
  createdAt: Date;
  expiresAt: Date | null;
}

const INSERT_DOCUMENT = rowAdditive(`insert into documents (id, job_id, team_id, url, source_url, status_code, body, size_bytes, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (id) do nothing`);

/** Inserts a serialized document. `expiresAt` defaults to now + 24 h. */
export async function saveDocument(
  db: Queryable,
  doc: { id: string; jobId?: string | null; teamId: string; url: string; sourceUrl: string; statusCode: number; body: string; expiresAt?: Date },
): Promise<void> {
  await db.query(
    INSERT_DOCUMENT,
    [doc.id, doc.jobId ?? null, doc.teamId, doc.url, doc.sourceUrl, doc.statusCode, doc.body, Buffer.byteLength(doc.body), (doc.expiresAt ?? new Date(Date.now() + RETENTION_MS)).toISOString()],
  );
}

/** Reads one document by id, or undefined. */
export async function getDocument(db: Database, id: string): Promise<StoredDocument | undefined> {
  const rows = await db.query<Record<string, any>>(
    'select id, job_id, team_id, url, source_url, status_code, body, created_at, expires_at from documents where id = $1',
    [id],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    jobId: r.job_id,
    teamId: r.team_id,
    url: r.url,
    sourceUrl: r.source_url,
    statusCode: r.status_code,
    body: r.body,
    createdAt: new Date(r.created_at),
    expiresAt: r.expires_at ? new Date(r.expires_at) : null,
  };
}
