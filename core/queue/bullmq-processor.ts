/**
 * The bridge between a Trawl job handler and a BullMQ worker: builds the `QueueJob`, applies the
 * shared retry rule (core/queue/shared.ts) by throwing a plain Error (BullMQ retries) or an
 * UnrecoverableError (BullMQ fails at once), and carries the TrawlError as JSON in the error message,
 * which BullMQ stores as `failedReason`; `reviveFailure` turns it back into a TrawlError.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import { TrawlError } from '../errors.ts';
import { classifyFailure } from './shared.ts';
import type { JobHandler } from './types.ts';

/**
 * A BullMQ processor running `handler`.
 * @param running   filled with the promises of jobs in progress (for shutdown and cancel)
 * @param cancelled ids whose cancel was requested; their failure becomes SCRAPE_JOB_CANCELLED
 */
export function bullmqProcessor<T, R>(
  queue: string,
  handler: JobHandler<T, R>,
  running: Map<string, Promise<unknown>>,
  cancelled: Set<string>,
) {
  // Three declared parameters: BullMQ only passes the AbortSignal to processors that take it.
  return async (job: Job, _token?: string, signal?: AbortSignal): Promise<unknown> => {
    const id = job.id as string;
    const attempt = job.attemptsMade + 1;
    const maxAttempts = job.opts.attempts ?? 1;
    const work = handler({ id, queue, name: job.name, data: job.data as T, attempt, maxAttempts }, signal ?? new AbortController().signal);
    running.set(id, work);
    try {
      const result = await work;
      return result === undefined ? null : result;
    } catch (e) {
      const { error, retry } = classifyFailure(e, attempt, maxAttempts, cancelled.has(id));
      const reason = JSON.stringify(error.toJSON());
      throw retry ? new Error(reason) : new UnrecoverableError(reason);
    } finally {
      running.delete(id);
      cancelled.delete(id);
    }
  };
}

/** BullMQ's `failedReason` for a job whose worker died more than `maxStalledCount` times. */
const STALLED_REASON = 'job stalled more than allowable limit';

/**
 * Revives the TrawlError a worker stored as `failedReason`; BullMQ's stalled-limit failure becomes
 * JOB_INTERRUPTED (as in the in-process driver); anything else UNKNOWN_ERROR.
 */
export function reviveFailure(reason: string | undefined): TrawlError {
  try {
    const parsed = JSON.parse(reason ?? '');
    if (parsed && parsed.name === 'TrawlError') return TrawlError.fromJSON(parsed);
  } catch {}
  if (reason === STALLED_REASON) {
    return new TrawlError('JOB_INTERRUPTED', 'The job was interrupted twice: the worker running it stopped (a crash or an out-of-memory kill) while it ran. It is not run again, since running it may be what stops the worker.');
  }
  return new TrawlError('UNKNOWN_ERROR', reason || 'Job failed');
}
