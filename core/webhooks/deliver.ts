/**
 * Webhook delivery (compat.md §17): sends outbox rows as JSON POSTs signed with the team's secret
 * (team-secret.ts; issue 15 item 13), one job's events in order
 * by one sender at a time (a lease row in `webhook_senders` makes that hold across processes), each
 * attempt recorded in `webhook_attempts`. A 2xx within 10 s is success; otherwise the event is retried
 * after 1, 5 and 15 minutes, then marked failed. Delivery never blocks or fails the job that emitted it.
 */
import type { Database } from '../db/client.ts';
import type { Logger } from '../log.ts';
import { pinnedFetch } from '../net/pinned-fetch.ts';
import type { TargetPolicy } from '../net/target-policy.ts';
import { signatureHeaders } from './sign.ts';

export interface DeliveryDeps {
  db: Database;
  log: Logger;
  /** The signature key of a team's webhooks (team-secret.ts `teamWebhookSecret`); undefined: unsigned. */
  secretFor(teamId: string): Promise<string | undefined>;
  /** What the SSRF guard allows for receivers. */
  targets: TargetPolicy;
}

/** Delays before retries 1, 2, 3, ms (compat.md §17). */
export const RETRY_DELAYS_MS = [60_000, 300_000, 900_000];
/** A receiver must answer within this, ms. */
export const DELIVERY_TIMEOUT_MS = 10_000;
const LEASE_S = 30;

/** Whether the delivery's job keeps no data (zero data retention). */
const ZDR_JOB = `coalesce((select j.zero_data_retention from jobs j where j.id = webhook_deliveries.job_id), false)`;
/** A zero data retention job's event body (its documents) is dropped once delivered or given up on. */
const ZDR_BODY = `body = CASE WHEN ${ZDR_JOB} THEN '{}' ELSE body END`;

interface DeliveryRow {
  id: string;
  /** The team whose job emitted the event: its secret signs it. */
  teamId: string;
  seq: number;
  url: string;
  headers: Record<string, string>;
  body: string;
  attempts: number;
}

/** The most of a receiver's answer read, bytes; the rest is cancelled unread (issue 15 item 7). */
export const MAX_RESPONSE_BYTES = 4096;

/** Reads at most MAX_RESPONSE_BYTES of a response body (keeping the connection reusable for short answers) and cancels the rest. */
async function drainCapped(res: Response): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  try {
    for (let read = 0; read <= MAX_RESPONSE_BYTES; ) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    await reader.cancel().catch(() => undefined);
  }
}

/** Sends one delivery once; returns the HTTP status (0 when no response) and an error text. */
async function attempt(deps: DeliveryDeps, row: DeliveryRow): Promise<{ status: number; error?: string }> {
  try {
    const res = await pinnedFetch(row.url, {
      method: 'POST',
      headers: { ...row.headers, 'content-type': 'application/json' },
      body: row.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    }, deps.targets);
    await drainCapped(res);
    return res.ok ? { status: res.status } : { status: res.status, error: `HTTP ${res.status}` };
  } catch (e) {
    return { status: 0, error: (e as Error).message || String(e) };
  }
}

/** Sends one delivery and records the attempt and the new state. */
async function deliverOne(deps: DeliveryDeps, row: DeliveryRow, retryDelaysMs: number[]): Promise<void> {
  const started = Date.now();
  // Signed at send time, so a rotated secret applies to retries too. Users cannot set these headers (spec.ts).
  const signature = signatureHeaders(row.body, await deps.secretFor(row.teamId));
  const { status, error } = await attempt(deps, { ...row, headers: { ...row.headers, ...signature } });
  const n = row.attempts + 1;
  await deps.db.query(
    'insert into webhook_attempts (delivery_id, attempt, status_code, error, duration_ms) values ($1, $2, $3, $4, $5) on conflict do nothing',
    [row.id, n, status || null, error ?? null, Date.now() - started],
  );
  if (!error) {
    await deps.db.query(
      `update webhook_deliveries set status = 'delivered', attempts = $2, last_status_code = $3, last_error = null, updated_at = now(), ${ZDR_BODY} where id = $1`,
      [row.id, n, status],
    );
    return;
  }
  const delay = retryDelaysMs[n - 1];
  await deps.db.query(
    `update webhook_deliveries set status = $2, attempts = $3, last_status_code = $4, last_error = $5,
       next_attempt_at = now() + ($6::int * interval '1 millisecond'), updated_at = now(),
       body = CASE WHEN $2 = 'failed' AND ${ZDR_JOB} THEN '{}' ELSE body END where id = $1`,
    [row.id, delay === undefined ? 'failed' : 'pending', n, status || null, error.slice(0, 1000), delay ?? 0],
  );
  deps.log.debug({ delivery: row.id, attempt: n, status, error }, 'webhook delivery failed');
}

const running = new Map<string, { again: boolean }>();

/**
 * Sends every due event of one job, in order. Safe to call from any process at any time: only the
 * holder of the job's sender lease sends; a call while this process is sending makes it look again.
 */
export async function dispatchJob(deps: DeliveryDeps, jobId: string, retryDelaysMs = RETRY_DELAYS_MS): Promise<void> {
  const mine = running.get(jobId);
  if (mine) {
    mine.again = true;
    return;
  }
  const state = { again: false };
  running.set(jobId, state);
  try {
    do {
      state.again = false;
      const got = await deps.db.query(
        `insert into webhook_senders (job_id, lease_until) values ($1, now() + interval '${LEASE_S} seconds')
         on conflict (job_id) do update set lease_until = excluded.lease_until where webhook_senders.lease_until < now()
         returning job_id`,
        [jobId],
      );
      if (got.length === 0) return; // another process is sending; it will see our events
      try {
        for (;;) {
          const rows = await deps.db.query<DeliveryRow>(
            `select id, team_id as "teamId", seq, url, headers, body, attempts from webhook_deliveries
             where job_id = $1 and status = 'pending' and next_attempt_at <= now() order by seq limit 20`,
            [jobId],
          );
          if (rows.length === 0) break;
          for (const row of rows) {
            await deliverOne(deps, row, retryDelaysMs);
            await deps.db.query(`update webhook_senders set lease_until = now() + interval '${LEASE_S} seconds' where job_id = $1`, [jobId]);
          }
        }
      } finally {
        await deps.db.query('delete from webhook_senders where job_id = $1', [jobId]);
      }
      // Events written while we released the lease would otherwise wait for the next sweep.
      const due = await deps.db.query(
        `select 1 from webhook_deliveries where job_id = $1 and status = 'pending' and next_attempt_at <= now() limit 1`,
        [jobId],
      );
      if (due.length > 0) state.again = true;
    } while (state.again);
  } catch (e) {
    deps.log.warn({ err: e, jobId }, 'webhook dispatch failed');
  } finally {
    running.delete(jobId);
  }
}

/** Starts `dispatchJob` without waiting (what workers call after writing events). */
export function kickJob(deps: DeliveryDeps, jobId: string): void {
  void dispatchJob(deps, jobId);
}

/** Dispatches every job with due events (the periodic sweep: retries, and events nobody kicked). */
export async function dispatchDue(deps: DeliveryDeps, limit = 100): Promise<number> {
  const jobs = await deps.db.query<{ job_id: string }>(
    `select distinct job_id from webhook_deliveries where status = 'pending' and next_attempt_at <= now() limit $1`,
    [limit],
  );
  for (const j of jobs) kickJob(deps, j.job_id);
  return jobs.length;
}
