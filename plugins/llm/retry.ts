/**
 * Retry decisions of the model client: which failures a retry can help (429, 5xx, an unreachable
 * server), how long to wait (the server's `Retry-After` / `retry-after-ms` when it gives one, else
 * exponential backoff from 500 ms with ±25 % jitter), and the bound on that wait
 * (`TRAWL_MODEL_RETRY_MAX_WAIT_MS`). Waits happen outside the concurrency limit, so a rate-limited
 * call does not hold a slot while it sleeps.
 */

/** First backoff step, ms. */
export const BASE_BACKOFF_MS = 500;

/** Whether an HTTP status (undefined: no answer at all) is worth another try. */
export function retryableStatus(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The wait the server asks for, ms: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP
 * date; undefined when it asks for none (or nonsense).
 */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** Backoff before retry number `attempt` (0-based), ms, with ±25 % jitter. */
export function backoffMs(attempt: number, random = Math.random): number {
  const base = BASE_BACKOFF_MS * 2 ** attempt;
  return Math.round(base * (0.75 + random() * 0.5));
}

