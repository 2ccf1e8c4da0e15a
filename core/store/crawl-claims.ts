/**
 * Claiming and completing frontier rows (worker side). The queue only carries "run row X, enqueue n"
 * messages; a claim succeeds only for the row's current enqueue number and bumps `attempts`, which is
 * the claim token every later write presents, so a duplicated or stale queue message, or a worker
 * whose lease lapsed, never stores a page twice.
 */
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import { advanceOf, type Advance, type AdvanceRow, type Candidate } from './crawl-urls.ts';

/** A claimed row: what the worker scrapes. */
export interface ClaimedUrl {
  jobId: string;
  id: string;
  key: string;
  url: string;
  sourceUrl: string;
  depth: number;
  external: boolean;
  /** Claim token: completion must present it. */
  attempt: number;
}

/**
 * Claims a queued row for this worker.
 * @param enqueue the enqueue number the queue message carries (stale messages claim nothing)
 * @param leaseMs how long the claim holds without renewal, ms
 */
export async function claimUrl(db: Queryable, rowId: string, enqueue: number, leaseMs: number): Promise<ClaimedUrl | undefined> {
  const rows = await db.query<Record<string, any>>(
    `update crawl_urls c set status = 'active', attempts = attempts + 1, lease_until = now() + ($3::int * interval '1 millisecond'), updated_at = now()
     from crawl_jobs j
     where c.id = $1 and c.status = 'queued' and c.enqueues = $2 and j.id = c.job_id and j.state = 'running'
     returning c.job_id, c.id, c.url_key, c.url, c.source_url, c.depth, c.external, c.attempts`,
    [rowId, enqueue, leaseMs],
  );
  const r = rows[0];
  if (!r) return undefined;
  return { jobId: r.job_id, id: r.id, key: r.url_key, url: r.url, sourceUrl: r.source_url, depth: r.depth, external: r.external, attempt: r.attempts };
}

/** Extends a claim; false when the row is no longer this worker's. */
export async function renewLease(db: Queryable, claim: ClaimedUrl, leaseMs: number): Promise<boolean> {
  const rows = await db.query(
    `update crawl_urls set lease_until = now() + ($3::int * interval '1 millisecond') where id = $1 and status = 'active' and attempts = $2 returning 1`,
    [claim.id, claim.attempt, leaseMs],
  );
  return rows.length > 0;
}

/** True when the row is still claimed by `claim` (checked inside the completion transaction). */
export async function stillOwned(tx: Queryable, claim: ClaimedUrl): Promise<boolean> {
  const rows = await tx.query(`select 1 from crawl_urls where id = $1 and status = 'active' and attempts = $2`, [claim.id, claim.attempt]);
  return rows.length > 0;
}

/** Sets a row's final status with an optional error record. */
export async function settleRow(tx: Queryable, rowId: string, status: string, error?: { code?: string; message: string }): Promise<void> {
  await tx.query(
    `update crawl_urls set status = $2, error_code = $3, error = $4, lease_until = null, updated_at = now() where id = $1`,
    [rowId, status, error?.code ?? null, error?.message ?? null],
  );
}

/** A scraped page as `completePage` stores it. */
export interface CompletedPage {
  teamId: string;
  /** Final URL after redirects. */
  url: string;
  statusCode: number;
  /** The serialized Document, or undefined for zero data retention (not stored). */
  body?: string;
  /** Credits of the page: added to the crawl and charged to the team in the same statement. */
  credits: number;
  /** API key that started the job (the ledger's usage history); undefined for keyless calls. */
  apiKeyId?: string;
  discovered: Candidate[];
  /** The `*.page` webhook outbox row, when the job's webhook wants it. */
  hook?: { id: string; event: string; url: string; headers: Record<string, string>; body: string };
}

/**
 * Completes a claimed page in one statement (SQL function `crawl_complete_page`, migration
 * 0006_crawl_charge): claim check, completion order, document, credits (the crawl's count and the
 * team's ledger, kind 'scrape' with the page id as refId, idempotent), discovered links, webhook
 * event, next window.
 * Run it on the database handle (not inside a transaction) so the crawl's lock is held only while
 * the database works; inside a transaction it joins it.
 * @returns `done` with the advance, `lost` (the claim is no longer this worker's) or `ended`
 */
export async function completePage(
  db: Queryable,
  claim: ClaimedUrl,
  page: CompletedPage,
  chainLeaseMs = 0,
): Promise<{ status: 'done' | 'lost' | 'ended'; advance: Advance; next?: ClaimedUrl }> {
  const byKey = new Map<string, Candidate>();
  for (const c of page.discovered) {
    const prior = byKey.get(c.key);
    if (!prior || c.depth < prior.depth) byKey.set(c.key, c);
  }
  const rows = [...byKey.values()];
  type Row = AdvanceRow & { status: 'done' | 'lost' | 'ended'; next?: Omit<ClaimedUrl, 'jobId'> | null };
  const [{ r }] = await db.query<{ r: Row }>(
    'select crawl_complete_page($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) as r',
    [
      claim.jobId, claim.id, claim.attempt, page.credits, page.teamId, page.url, claim.sourceUrl, page.statusCode, page.body ?? null,
      rows.map((c) => c.key), rows.map(() => newId()), rows.map((c) => c.url), rows.map((c) => c.sourceUrl), rows.map((c) => c.depth),
      rows.map((c) => (c.external ? 1 : 0)), page.hook ?? null, chainLeaseMs, page.apiKeyId ?? null, newId(),
    ],
  );
  if (r.status !== 'done') return { status: r.status, advance: { items: [], pending: 1 } };
  const next = r.next ? { ...r.next, jobId: claim.jobId } : undefined;
  const advance = advanceOf(claim.jobId, r);
  if (next) advance.items = advance.items.filter((i) => i.rowId !== next.id);
  return { status: 'done', advance, next };
}

