/**
 * Scrape auto-resume (compat.md §4 and §21 item 9). A single scrape's job runs with a budget longer
 * than the request's `timeout` (`jobTimeout`); when the request's time is up and the job still runs,
 * the API answers 408 `SCRAPE_TIMEOUT` with `details.state: "processing_continues"` and `Retry-After`
 * (`processingContinues`) and records the job under the request's key (`saveResume`). The SDK then
 * re-POSTs the identical body; that repeat finds the job (`findResume`) and waits for it instead of
 * scraping again, on any API node (the records live in the database, table `scrape_resumes`).
 */
import { createHash } from 'node:crypto';
import type { Database } from '../db/client.ts';
import { TrawlError } from '../errors.ts';

/** The largest scrape `timeout` (interface.md Limits), ms: also the cap of a job's budget. */
export const MAX_SCRAPE_TIMEOUT_MS = 300_000;
/** How long after its job's budget a record can still be joined (the SDK waits up to 10 min), ms. */
export const RESUME_KEEP_MS = 10 * 60_000;

/**
 * The budget of a single scrape's job: twice the request's `timeout`, at most 300 000 ms. The request
 * answers at `timeout`; the rest is what a resumed request can still collect. Bounded so that a target
 * that never answers holds a worker at most twice as long as asked.
 * @param timeoutMs the request's `timeout`, ms
 */
export function jobTimeout(timeoutMs: number): number {
  return Math.min(MAX_SCRAPE_TIMEOUT_MS, Math.max(timeoutMs, 2 * timeoutMs));
}

/**
 * The key of a scrape request: the team, the API key (none when keyless) and the body exactly as
 * sent. The SDK repeats the identical body, so identical requests share a key.
 */
export function resumeKey(teamId: string, keyId: string | undefined, body: unknown): string {
  return createHash('sha256').update(`${teamId}\n${keyId ?? ''}\n${JSON.stringify(body)}`).digest('hex');
}

/** A recorded running scrape: its id (the queue job id) and when its budget ends. */
export interface ResumableScrape {
  scrapeId: string;
  runUntil: Date;
}

/** How long a finding "no live record at all" is trusted before the table is read again, ms. */
const EMPTY_RECHECK_MS = 60_000;

/** Per database whose only writer is this process: whether a live record may exist. */
const liveRecords = new WeakMap<Database, { maybe: boolean; checkedAt: number; saves: number }>();

/**
 * The running scrape recorded under `key` for `teamId`, unless its record expired.
 * @param opts `soleWriter`: only this process writes the table (the in-process queue's one process
 *             per database), so while it knows of no live record at all the lookup needs no
 *             statement (most scrapes never answered 408); the table is read again every 60 s
 */
export async function findResume(db: Database, key: string, teamId: string, opts: { soleWriter?: boolean } = {}): Promise<ResumableScrape | undefined> {
  if (opts.soleWriter) {
    const known = liveRecords.get(db);
    if (!known || Date.now() - known.checkedAt > EMPTY_RECHECK_MS) {
      const saves = known?.saves ?? 0;
      const [row] = await db.query<{ live: boolean }>('select exists (select 1 from scrape_resumes where expires_at > now()) as live');
      const now = liveRecords.get(db);
      // A save while this read ran wins: its record may not have been visible to the read.
      if ((now?.saves ?? 0) === saves) liveRecords.set(db, { maybe: Boolean(row?.live), checkedAt: Date.now(), saves });
    }
    if (liveRecords.get(db)?.maybe === false) return undefined;
  }
  const rows = await db.query<Record<string, any>>(
    'select scrape_id, run_until from scrape_resumes where request_key = $1 and team_id = $2 and expires_at > now()',
    [key, teamId],
  );
  const r = rows[0];
  return r ? { scrapeId: r.scrape_id, runUntil: new Date(r.run_until) } : undefined;
}

/** Records a scrape that keeps running after its request answered 408; prunes expired records. */
export async function saveResume(db: Database, key: string, teamId: string, scrape: ResumableScrape): Promise<void> {
  const known = liveRecords.get(db);
  liveRecords.set(db, { maybe: true, checkedAt: known?.checkedAt ?? 0, saves: (known?.saves ?? 0) + 1 });
  await db.query('delete from scrape_resumes where expires_at <= now()');
  await db.query(
    `insert into scrape_resumes (request_key, scrape_id, team_id, run_until, expires_at) values ($1, $2, $3, $4, $5)
     on conflict (request_key) do update set scrape_id = excluded.scrape_id, team_id = excluded.team_id,
       run_until = excluded.run_until, expires_at = excluded.expires_at`,
    [key, scrape.scrapeId, teamId, scrape.runUntil.toISOString(), new Date(scrape.runUntil.getTime() + RESUME_KEEP_MS).toISOString()],
  );
}

/** Drops the record of `key` (its result was collected, or the job failed). */
export async function dropResume(db: Database, key: string): Promise<void> {
  await db.query('delete from scrape_resumes where request_key = $1', [key]);
}

/**
 * The 408 of a scrape whose job keeps running (compat.md §4): `Retry-After` and
 * `details.retryAfterSeconds` are the job's remaining budget, at most the request's timeout, ≥ 1 s.
 * @param runUntil when the job's budget ends
 * @param timeoutMs the request's `timeout`, ms
 */
export function processingContinues(url: string, runUntil: Date, timeoutMs: number): TrawlError {
  const remainingMs = Math.max(0, runUntil.getTime() - Date.now());
  const retryAfterSeconds = Math.max(1, Math.ceil(Math.min(remainingMs, timeoutMs) / 1000));
  return new TrawlError(
    'SCRAPE_TIMEOUT',
    `Scrape of ${url} is still running after ${timeoutMs} ms; it goes on in the background. Repeat the identical request to collect the result.`,
    {
      details: { state: 'processing_continues', retryAfterSeconds },
      headers: { 'Retry-After': String(retryAfterSeconds) },
    },
  );
}
