/**
 * Rules both queue drivers share: option validation and defaults, the retry decision, the wait
 * timeout and cancellation errors. Keeping them here keeps the drivers' behaviour identical.
 */
import { TrawlError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { JobOptions } from './types.ts';

export const MAX_PRIORITY = 2_000_000;
export const DEFAULT_BACKOFF_MS = 1_000;
export const DEFAULT_CLOSE_GRACE_MS = 10_000;
/** Finished jobs stay readable by `waitFor` this long, ms. */
export const KEEP_FINISHED_MS = 3_600_000;

export interface ResolvedJobOptions {
  id: string;
  priority: number;
  maxAttempts: number;
  delayMs: number;
  backoffMs: number;
}

function int(value: number | undefined, fallback: number, min: number, max: number, name: string): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new TrawlError('BAD_REQUEST', `Queue option ${name} must be an integer from ${min} to ${max}, got ${v}`);
  }
  return v;
}

/**
 * Validates and defaults `JobOptions`.
 * @throws TrawlError BAD_REQUEST naming the bad option
 */
export function resolveJobOptions(opts: JobOptions = {}): ResolvedJobOptions {
  const id = opts.id ?? newId();
  if (typeof id !== 'string' || id.length === 0 || id.length > 200 || id.includes(':') || /^\d+$/.test(id)) {
    throw new TrawlError('BAD_REQUEST', `Invalid queue job id ${JSON.stringify(id)}: 1-200 characters, not only digits, no ':'`);
  }
  return {
    id,
    priority: int(opts.priority, 0, 0, MAX_PRIORITY, 'priority'),
    maxAttempts: int(opts.maxAttempts, 1, 1, 100, 'maxAttempts'),
    delayMs: int(opts.delayMs, 0, 0, 365 * 24 * 3_600_000, 'delayMs'),
    backoffMs: int(opts.backoffMs, DEFAULT_BACKOFF_MS, 0, 24 * 3_600_000, 'backoffMs'),
  };
}

/** Delay before attempt `attempt + 1` after attempt `attempt` failed, ms (exponential, as BullMQ). */
export function retryDelayMs(backoffMs: number, attempt: number): number {
  return backoffMs * 2 ** (attempt - 1);
}

/**
 * What a handler's throw means.
 * @param aborted the job was cancelled while running: always final, as SCRAPE_JOB_CANCELLED
 */
export function classifyFailure(error: unknown, attempt: number, maxAttempts: number, aborted: boolean): { error: TrawlError; retry: boolean } {
  if (aborted) return { error: cancelledError(), retry: false };
  const e = TrawlError.wrap(error);
  return { error: e, retry: e.retryable && attempt < maxAttempts };
}

export function cancelledError(jobId?: string): TrawlError {
  return new TrawlError('SCRAPE_JOB_CANCELLED', jobId ? `Job ${jobId} was cancelled` : 'Job was cancelled');
}

export function notFoundError(jobId: string): TrawlError {
  return new TrawlError('JOB_NOT_FOUND', `Job ${jobId} not found`);
}

export function closedError(): TrawlError {
  return new TrawlError('BACKEND_UNAVAILABLE', 'The queue is shut down');
}

/** The error `waitFor` rejects with when the job did not finish in time. */
export function waitTimeoutError(jobId: string, timeoutMs: number): TrawlError {
  return new TrawlError('GATEWAY_TIMEOUT', `Job ${jobId} did not finish within ${timeoutMs} ms`, {
    details: { reason: 'wait_timeout', jobId, timeoutMs },
  });
}

/** True for the error of `waitFor` giving up (not a handler's own GATEWAY_TIMEOUT). */
export function isWaitTimeout(error: unknown): boolean {
  return error instanceof TrawlError && (error.details as { reason?: unknown } | undefined)?.reason === 'wait_timeout';
}

/**
 * Checks a queue name: 1-100 of `A-Z a-z 0-9 _ -` (BullMQ uses it inside Redis keys).
 * @throws TrawlError BAD_REQUEST
 */
export function assertQueueName(queue: string): void {
  if (typeof queue !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(queue)) {
    throw new TrawlError('BAD_REQUEST', `Invalid queue name ${JSON.stringify(queue)}: 1-100 of A-Z a-z 0-9 _ -`);
  }
}

/** JSON text of job data, or BAD_REQUEST when it cannot be serialized. */
export function serializeData(data: unknown): string {
  try {
    return JSON.stringify(data === undefined ? null : data);
  } catch (e) {
    throw new TrawlError('BAD_REQUEST', `Queue job data must be JSON-serializable: ${(e as Error).message}`);
  }
}
