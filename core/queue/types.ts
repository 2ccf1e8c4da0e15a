/**
 * The queue driver interface. Jobs go into named queues; processes register handlers per queue; any
 * process can wait for a job's result. Two drivers implement it: `memory` (in-process, jobs persisted
 * in the `queue_jobs` table so they survive restarts) and `bullmq` (Redis; separate api and worker
 * processes). Both pass test/contracts/queue.test.ts.
 *
 * Failure rule (both drivers): a handler that throws a `TrawlError` with `retryable: true` is run again
 * while attempts remain, after `backoffMs * 2^(attempt-1)` ms. Any other throw fails the job at once.
 * The failure is stored as `TrawlError.toJSON()`, so `waitFor` in any process rejects with an equal
 * TrawlError (code, status, message, details). Non-TrawlErrors become `UNKNOWN_ERROR` (500).
 */

export interface JobOptions {
  /** Job id (default: a new UUIDv7). Adding an id that already exists is a no-op. No ':' allowed. */
  id?: string;
  /** 0..2_000_000, lower runs first (default 0); equal priorities run in the order added. */
  priority?: number;
  /** Total tries including the first (default 1: no retry). */
  maxAttempts?: number;
  /** Do not start before this many ms from now (default 0). */
  delayMs?: number;
  /** First retry delay in ms, doubled for each later retry (default 1000). */
  backoffMs?: number;
}

/** What a handler receives. */
export interface QueueJob<T> {
  id: string;
  queue: string;
  name: string;
  data: T;
  /** 1-based attempt number. */
  attempt: number;
  maxAttempts: number;
}

/**
 * Handles one job. The result must be JSON-serializable (it may cross processes). `signal` aborts when
 * the job is cancelled or the driver shuts down past its grace period; a handler should stop then.
 */
export type JobHandler<T, R> = (job: QueueJob<T>, signal: AbortSignal) => Promise<R>;

export interface QueueCounts {
  /** Ready to run now. */
  waiting: number;
  active: number;
  /** Waiting for a start time (delay or retry backoff). */
  delayed: number;
}

export interface QueueDriver {
  readonly kind: 'memory' | 'bullmq';
  /**
   * Enqueues a job. Returns its id; when the id exists already nothing changes and the id is returned.
   * @throws TrawlError BAD_REQUEST for an invalid id, priority or attempt count
   */
  add<T>(queue: string, name: string, data: T, opts?: JobOptions): Promise<string>;
  /** Starts running jobs of `queue` in this process, at most `concurrency` at once. Once per queue. */
  process<T, R>(queue: string, handler: JobHandler<T, R>, opts: { concurrency: number }): Promise<void>;
  /**
   * Waits for a job to finish, whichever process runs it.
   * @param timeoutMs how long to wait, ms; the job itself keeps going after a timeout
   * @returns the handler's result
   * @throws the job's TrawlError revived; `JOB_NOT_FOUND` for an unknown (or pruned) id;
   *         `SCRAPE_JOB_CANCELLED` when the job is cancelled while waiting; a wait timeout as
   *         `GATEWAY_TIMEOUT` with `details.reason === 'wait_timeout'` (see `isWaitTimeout`)
   */
  waitFor<R>(jobId: string, timeoutMs: number): Promise<R>;
  /**
   * Adds a job with a new id and waits for its result: `add` then `waitFor`, for a caller that waits
   * for the job it adds (a synchronous request). Same results and errors as those two.
   *
   * The in-process driver runs such a job at once, without a queue row, when this process works the
   * queue and has a free slot (no job waiting, no delay, one attempt): its outcome is handed back in
   * process. Such a job is durable only from the moment the wait ends without its outcome (a wait
   * timeout: the row is written then, as active, so a crash resumes it and a later `waitFor` finds
   * it); a process dying while it runs before that loses it, as it loses the waiting request.
   * Otherwise it is `add` + `waitFor`.
   * @param opts `id` must be new (a fresh UUIDv7 from core/ids.ts, as `add` makes by default): a
   *             direct run does not look for a stored job with that id
   * @param timeoutMs how long to wait, ms (as `waitFor`)
   */
  addAndWait<T, R>(queue: string, name: string, data: T, opts: JobOptions, timeoutMs: number): Promise<R>;
  /**
   * Cancels a job: a waiting or delayed job is removed (waiters get `SCRAPE_JOB_CANCELLED`); an active
   * job has its AbortSignal aborted, and fails with `SCRAPE_JOB_CANCELLED` if its handler then throws.
   * @returns false when the job is unknown or already finished
   */
  cancel(jobId: string): Promise<boolean>;
  /**
   * Deletes a finished job and its stored result at once instead of keeping it for later
   * `waitFor` calls (zero data retention: the result holds the document). No-op for unknown or
   * unfinished jobs.
   */
  forget(jobId: string): Promise<void>;
  counts(queue: string): Promise<QueueCounts>;
  /** True when the backing store (database or Redis) answers. */
  ping(): Promise<boolean>;
  /**
   * Stops taking jobs and waits up to `graceMs` (default 10 000) for active ones. Jobs still running
   * then are aborted and left to run again later (next start, or another worker). Idempotent.
   */
  close(graceMs?: number): Promise<void>;
}
