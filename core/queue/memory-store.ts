/**
 * The SQL of the in-process queue driver over the `queue_jobs` table (core/db/schema/queue-jobs.ts).
 * Times come from the database clock (`clock_timestamp()`), so delays and backoff are consistent with
 * what the rows say. Claims use `FOR UPDATE SKIP LOCKED`, so a job is never started twice.
 */
import type { Database } from '../db/client.ts';
import type { SerializedError } from '../errors.ts';
import type { ResolvedJobOptions } from './shared.ts';

export interface ClaimedRow {
  id: string;
  queue: string;
  name: string;
  data: unknown;
  attempts: number;
  max_attempts: number;
  backoff_ms: number;
}

export interface FinishedRow {
  status: 'waiting' | 'active' | 'completed' | 'failed';
  result: unknown;
  error: SerializedError | null;
}

export class QueueStore {
  constructor(private readonly db: Database) {}

  /** Inserts a waiting job; an existing id is left unchanged. */
  async insert(queue: string, name: string, dataJson: string, o: ResolvedJobOptions): Promise<void> {
    await this.db.query(
      `INSERT INTO queue_jobs (id, queue, name, data, priority, max_attempts, backoff_ms, run_at)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, clock_timestamp() + $8::double precision * interval '1 millisecond')
       ON CONFLICT (id) DO NOTHING`,
      [o.id, queue, name, dataJson, o.priority, o.maxAttempts, o.backoffMs, o.delayMs],
    );
  }

  /**
   * Inserts a job already claimed by this process (status active, first attempt) so it can start at
   * once, without a claim statement; the row is what makes it crash safe (resumeInterrupted).
   * @returns false when the id exists already (nothing changed)
   */
  async insertActive(queue: string, name: string, dataJson: string, o: ResolvedJobOptions): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO queue_jobs (id, queue, name, data, priority, max_attempts, backoff_ms, run_at, status, attempts)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, clock_timestamp(), 'active', 1)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [o.id, queue, name, dataJson, o.priority, o.maxAttempts, o.backoffMs],
    );
    return rows.length > 0;
  }

  /**
   * Inserts a job that already ran in this process without a row (`addAndWait`'s direct run) and
   * finished while nobody waited for it, so a later `waitFor` reads its outcome. An existing row (the
   * job was recorded active when its wait ended) is updated instead.
   */
  async insertFinished(queue: string, name: string, o: ResolvedJobOptions, outcome: { result: string } | { error: SerializedError }): Promise<void> {
    const ok = 'result' in outcome;
    await this.db.query(
      `INSERT INTO queue_jobs (id, queue, name, data, priority, max_attempts, backoff_ms, run_at, status, attempts, result, error)
       VALUES ($1, $2, $3, NULL, $4, $5, $6, clock_timestamp(), $7, 1, $8::jsonb, $9::jsonb)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, result = excluded.result, error = excluded.error, data = NULL,
         updated_at = clock_timestamp()`,
      [o.id, queue, name, o.priority, o.maxAttempts, o.backoffMs, ok ? 'completed' : 'failed', ok ? outcome.result : null, ok ? null : JSON.stringify(outcome.error)],
    );
  }

  /** Marks the next due job of `queue` active (lowest priority, then oldest run_at) and returns it. */
  async claim(queue: string): Promise<ClaimedRow | undefined> {
    const rows = await this.db.query<ClaimedRow>(
      `UPDATE queue_jobs SET status = 'active', attempts = attempts + 1, updated_at = clock_timestamp()
       WHERE id = (
         SELECT id FROM queue_jobs
         WHERE queue = $1 AND status = 'waiting' AND run_at <= clock_timestamp()
         ORDER BY priority, run_at, created_at, id
         LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, queue, name, data, attempts, max_attempts, backoff_ms`,
      [queue],
    );
    return rows[0];
  }

  /** Milliseconds until the next waiting job of `queue` is due (<= 0: due now), or undefined if none. */
  async nextDueInMs(queue: string): Promise<number | undefined> {
    const [row] = await this.db.query<{ ms: number | null }>(
      `SELECT (extract(epoch FROM (min(run_at) - clock_timestamp())) * 1000)::float8 AS ms
       FROM queue_jobs WHERE queue = $1 AND status = 'waiting'`,
      [queue],
    );
    return row?.ms ?? undefined;
  }

  async complete(id: string, resultJson: string): Promise<void> {
    await this.db.query(
      `UPDATE queue_jobs SET status = 'completed', result = $2::jsonb, data = NULL, error = NULL, updated_at = clock_timestamp() WHERE id = $1`,
      [id, resultJson],
    );
  }

  async fail(id: string, error: SerializedError): Promise<void> {
    await this.db.query(
      `UPDATE queue_jobs SET status = 'failed', error = $2::jsonb, data = NULL, updated_at = clock_timestamp() WHERE id = $1`,
      [id, JSON.stringify(error)],
    );
  }

  /** Puts a failed attempt back to waiting, due in `delayMs`. */
  async retry(id: string, error: SerializedError, delayMs: number): Promise<void> {
    await this.db.query(
      `UPDATE queue_jobs SET status = 'waiting', error = $2::jsonb, updated_at = clock_timestamp(),
         run_at = clock_timestamp() + $3::double precision * interval '1 millisecond'
       WHERE id = $1`,
      [id, JSON.stringify(error), delayMs],
    );
  }

  /** Deletes a job if it is still waiting. */
  async removeWaiting(id: string): Promise<boolean> {
    return (await this.db.query(`DELETE FROM queue_jobs WHERE id = $1 AND status = 'waiting' RETURNING id`, [id])).length > 0;
  }

  async status(id: string): Promise<FinishedRow | undefined> {
    const [row] = await this.db.query<FinishedRow>('SELECT status, result, error FROM queue_jobs WHERE id = $1', [id]);
    return row;
  }

  /**
   * Jobs left active by a process that stopped go back to waiting, with the interruption counted
   * (the interrupted attempt itself is not: it does not use up a retry). A job interrupted
   * `maxInterruptions` times fails with `error` instead: its run may be what stops the process, and
   * resuming it would stop every start. Call only when no other process uses the table.
   * @returns the ids resumed and the ids failed
   */
  async resumeInterrupted(maxInterruptions: number, error: SerializedError): Promise<{ resumed: string[]; failed: string[] }> {
    const rows = await this.db.query<{ id: string; status: string }>(
      `UPDATE queue_jobs SET
         interruptions = interruptions + 1,
         status = CASE WHEN interruptions + 1 >= $1 THEN 'failed' ELSE 'waiting' END,
         attempts = CASE WHEN interruptions + 1 >= $1 THEN attempts ELSE greatest(attempts - 1, 0) END,
         error = CASE WHEN interruptions + 1 >= $1 THEN $2::jsonb ELSE error END,
         data = CASE WHEN interruptions + 1 >= $1 THEN NULL ELSE data END,
         updated_at = clock_timestamp()
       WHERE status = 'active' RETURNING id, status`,
      [maxInterruptions, JSON.stringify(error)],
    );
    return { resumed: rows.filter((r) => r.status === 'waiting').map((r) => r.id), failed: rows.filter((r) => r.status === 'failed').map((r) => r.id) };
  }

  /**
   * Puts active jobs this process stops running on a clean shutdown back to waiting, not counted as
   * an interruption or an attempt.
   */
  async release(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      `UPDATE queue_jobs SET status = 'waiting', attempts = greatest(attempts - 1, 0), updated_at = clock_timestamp()
       WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND status = 'active'`,
      [JSON.stringify(ids)],
    );
  }

  /** Deletes finished jobs older than `keepMs`. */
  async prune(keepMs: number): Promise<number> {
    const rows = await this.db.query(
      `DELETE FROM queue_jobs WHERE status IN ('completed', 'failed')
         AND updated_at < clock_timestamp() - $1::double precision * interval '1 millisecond' RETURNING id`,
      [keepMs],
    );
    return rows.length;
  }

  async counts(queue: string): Promise<{ waiting: number; active: number; delayed: number }> {
    const [row] = await this.db.query<{ waiting: number; active: number; delayed: number }>(
      `SELECT count(*) FILTER (WHERE status = 'waiting' AND run_at <= clock_timestamp())::int AS waiting,
              count(*) FILTER (WHERE status = 'active')::int AS active,
              count(*) FILTER (WHERE status = 'waiting' AND run_at > clock_timestamp())::int AS delayed
       FROM queue_jobs WHERE queue = $1`,
      [queue],
    );
    return row ?? { waiting: 0, active: 0, delayed: 0 };
  }
}
