/**
 * Callers waiting for job outcomes, keyed by job id: the part of `waitFor` both drivers share. A
 * driver settles waiters when it learns an outcome (its own handler finished, or an event from another
 * process); `probe` reads the stored state right after registering (a job may have finished before
 * anyone waited) and again every `pollMs` as a safety net.
 */
import { TrawlError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { waitTimeoutError } from './shared.ts';

/** setTimeout fires at once beyond this (2^31 - 1 ms, ~24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

export type Outcome = { ok: true; value: unknown } | { ok: false; error: TrawlError };

interface Waiter {
  resolve(value: unknown): void;
  reject(error: TrawlError): void;
}

export class Waiters {
  private readonly byJob = new Map<string, Set<Waiter>>();

  constructor(private readonly log: Logger) {}

  /**
   * Waits for `jobId`'s outcome.
   * @param probe   reads the stored outcome; undefined while the job is unfinished
   * @param pollMs  how often to probe again, ms
   * @param probeNow false when the caller knows the job is unfinished and its outcome will be settled
   *                 here (it runs in this process): the first probe waits `pollMs` like the others
   */
  wait<R>(jobId: string, timeoutMs: number, pollMs: number, probe: () => Promise<Outcome | undefined>, probeNow = true): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let poll: ReturnType<typeof setInterval> | undefined;
      const waiter: Waiter = {
        resolve: (v) => {
          cleanup();
          resolve(v as R);
        },
        reject: (e) => {
          cleanup();
          reject(e);
        },
      };
      const timer = setTimeout(() => waiter.reject(waitTimeoutError(jobId, timeoutMs)), Math.min(Math.max(0, timeoutMs), MAX_TIMER_MS));
      const cleanup = () => {
        clearTimeout(timer);
        clearInterval(poll);
        const set = this.byJob.get(jobId);
        set?.delete(waiter);
        if (set?.size === 0) this.byJob.delete(jobId);
      };
      const set = this.byJob.get(jobId) ?? new Set<Waiter>();
      set.add(waiter);
      this.byJob.set(jobId, set);
      const check = () =>
        probe().then(
          (outcome) => {
            if (outcome && set.has(waiter)) settleOne(waiter, outcome);
          },
          (e: unknown) => this.log.debug({ err: e, jobId }, 'waitFor probe failed'),
        );
      if (probeNow) void check();
      poll = setInterval(check, pollMs);
    });
  }

  /** Whether anyone in this process waits for `jobId` now. */
  has(jobId: string): boolean {
    return this.byJob.has(jobId);
  }

  /** Delivers an outcome to everyone waiting for `jobId`. */
  settle(jobId: string, outcome: Outcome): void {
    const set = this.byJob.get(jobId);
    if (!set) return;
    for (const w of [...set]) settleOne(w, outcome);
  }

  /** Rejects every waiter (driver shutting down). */
  rejectAll(error: TrawlError): void {
    for (const set of [...this.byJob.values()]) for (const w of [...set]) w.reject(error);
  }
}

function settleOne(w: Waiter, outcome: Outcome): void {
  if (outcome.ok) w.resolve(outcome.value);
  else w.reject(outcome.error);
}

/**
 * Copies a value the way it would look after crossing processes as JSON (undefined -> null). A plain
 * object of strings, booleans and numbers (a scrape's `{ document }`) is copied field by field, with
 * the same result and without serializing its strings.
 */
export function jsonCopy<T>(value: T): T {
  if (value === undefined) return null as T;
  const flat = flatCopy(value);
  return flat ?? (JSON.parse(JSON.stringify(value)) as T);
}

/** The JSON copy of a plain object whose values are all primitives, or undefined for anything else. */
function flatCopy<T>(value: T): T | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    switch (typeof v) {
      case 'string':
      case 'boolean':
        out[k] = v;
        break;
      case 'number':
        out[k] = Number.isFinite(v) ? v : null;
        break;
      case 'undefined':
      case 'function':
      case 'symbol':
        break; // JSON leaves these out
      default:
        if (v !== null) return undefined;
        out[k] = null;
    }
  }
  return out as T;
}
