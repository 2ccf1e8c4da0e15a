/**
 * The one error type of Trawl. Every failure that can reach a user is a `TrawlError` with a stable
 * `code`, the HTTP `status` it maps to and whether a retry can help. Errors cross the queue as plain
 * JSON (`toJSON` / `TrawlError.fromJSON`), and `core/http/errors.ts` is the only place that turns
 * them into the wire envelope of compat.md §1.4: `{ success: false, code?, error, details? }`.
 */

/**
 * Defaults per code: HTTP status, retryability, and whether `code` is shown on the wire (compat.md §1.4).
 * Every code is thrown (or recorded as a crawl page error) somewhere and documented in docs/errors.md;
 * test/compat/error-codes.test.ts checks both. Codes of compat.md that Trawl never has a cause for
 * (`SCRAPE_PDF_PREFETCH_FAILED`, `SCRAPE_PDF_ANTIBOT_ERROR`, `UNSUPPORTED_SITE`, and
 * `SCRAPE_JSON_CONTENT_TOO_LARGE` until the json format exists) are left out.
 */
export const CODE_TABLE = {
  BAD_REQUEST: { status: 400, retryable: false, wire: true },
  BAD_REQUEST_INVALID_JSON: { status: 400, retryable: false, wire: true },
  ZDR_NOT_ENABLED: { status: 400, retryable: false, wire: false },
  PARSE_UNSUPPORTED_OPTIONS: { status: 400, retryable: false, wire: true },
  UNSUPPORTED_FILE_TYPE: { status: 400, retryable: false, wire: true },
  SCRAPE_ACTIONS_NOT_SUPPORTED: { status: 400, retryable: false, wire: true },
  UNAUTHORIZED: { status: 401, retryable: false, wire: false },
  PAYMENT_REQUIRED: { status: 402, retryable: false, wire: false },
  /** An agent run stopped at its `maxCredits` (issue 19; shown as the run's `error`). */
  AGENT_MAX_CREDITS: { status: 402, retryable: false, wire: true },
  FORBIDDEN: { status: 403, retryable: false, wire: false },
  UNSAFE_TARGET: { status: 403, retryable: false, wire: true },
  THREAT_BLOCKED_BLACKLIST: { status: 403, retryable: false, wire: true },
  THREAT_BLOCKED_TLD: { status: 403, retryable: false, wire: true },
  THREAT_BLOCKED_LIST: { status: 403, retryable: false, wire: true },
  THREAT_BLOCKED_RISK_SCORE: { status: 403, retryable: false, wire: true },
  THREAT_CHECK_UNAVAILABLE: { status: 403, retryable: false, wire: true },
  NOT_FOUND: { status: 404, retryable: false, wire: false },
  JOB_NOT_FOUND: { status: 404, retryable: false, wire: false },
  JOB_EXPIRED: { status: 404, retryable: false, wire: false },
  SCRAPE_LOCKDOWN_CACHE_MISS: { status: 404, retryable: false, wire: true },
  SCRAPE_NO_CACHED_DATA: { status: 404, retryable: false, wire: true },
  SCRAPE_TIMEOUT: { status: 408, retryable: true, wire: true },
  /** An agent run reached its time limit (30 min). */
  AGENT_TIMEOUT: { status: 408, retryable: false, wire: true },
  MAP_TIMEOUT: { status: 408, retryable: true, wire: true },
  CONCURRENCY_QUEUE_TIMEOUT: { status: 408, retryable: true, wire: true },
  /** An extract (or its lost job) did not end within its `timeout`; reported as its status `error`. */
  EXTRACT_TIMEOUT: { status: 408, retryable: false, wire: true },
  CONFLICT: { status: 409, retryable: false, wire: false },
  GONE: { status: 410, retryable: false, wire: false },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false, wire: true },
  SCRAPE_CONTENT_TOO_LARGE: { status: 413, retryable: false, wire: true },
  /** A document that cannot be read (damaged, encrypted, a zip bomb): the file's fault, so a 4xx. */
  PARSE_FAILED: { status: 422, retryable: false, wire: true },
  /** An agent run used its step budget (tool calls allowed by `effort`). */
  AGENT_MAX_STEPS: { status: 422, retryable: false, wire: true },
  RATE_LIMITED: { status: 429, retryable: true, wire: false },
  UNKNOWN_ERROR: { status: 500, retryable: false, wire: true },
  JOB_INTERRUPTED: { status: 500, retryable: false, wire: false },
  SCRAPE_ALL_ENGINES_FAILED: { status: 500, retryable: true, wire: true },
  SCRAPE_SITE_ERROR: { status: 500, retryable: true, wire: true },
  SCRAPE_SSL_ERROR: { status: 500, retryable: false, wire: true },
  SCRAPE_DNS_RESOLUTION_ERROR: { status: 500, retryable: false, wire: true },
  SCRAPE_UNSUPPORTED_FILE_ERROR: { status: 500, retryable: false, wire: true },
  SCRAPE_PDF_INSUFFICIENT_TIME_ERROR: { status: 500, retryable: false, wire: true },
  SCRAPE_ACTION_ERROR: { status: 500, retryable: false, wire: true },
  SCRAPE_RETRY_LIMIT: { status: 500, retryable: false, wire: true },
  SCRAPE_JOB_CANCELLED: { status: 500, retryable: false, wire: true },
  EXTERNAL_LINK: { status: 500, retryable: false, wire: true },
  MAP_FAILED: { status: 500, retryable: true, wire: true },
  UPSTREAM_ERROR: { status: 502, retryable: true, wire: false },
  /** The language model's answer failed its JSON schema, a repair turn included (core/llm). */
  MODEL_OUTPUT_INVALID: { status: 502, retryable: false, wire: false },
  BACKEND_UNAVAILABLE: { status: 503, retryable: false, wire: false },
  GATEWAY_TIMEOUT: { status: 504, retryable: true, wire: false },
} as const satisfies Record<string, { status: number; retryable: boolean; wire: boolean }>;

/** Every code Trawl emits. New codes are added to CODE_TABLE, never invented at a throw site. */
export type ErrorCode = keyof typeof CODE_TABLE;

/** What a TrawlError looks like as JSON: the form stored on jobs and carried through the queue. */
export interface SerializedError {
  name: 'TrawlError';
  code: ErrorCode;
  message: string;
  status: number;
  retryable: boolean;
  details?: unknown;
  /** Extra HTTP headers the error asks for, e.g. `Retry-After` on 429/408. */
  headers?: Record<string, string>;
}

export interface TrawlErrorOptions {
  status?: number;
  retryable?: boolean;
  details?: unknown;
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * A failure with a code, an HTTP status and whether retrying can help.
 *
 * @example throw new TrawlError('SCRAPE_TIMEOUT', 'Scrape timed out after 30000 ms', { retryable: true })
 */
export class TrawlError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: TrawlErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const defaults = CODE_TABLE[code] ?? CODE_TABLE.UNKNOWN_ERROR;
    this.name = 'TrawlError';
    this.code = code;
    this.status = options.status ?? defaults.status;
    this.retryable = options.retryable ?? defaults.retryable;
    this.details = options.details;
    this.headers = options.headers;
  }

  /** Whether the wire envelope carries `code` for this error (compat.md §1.4 lists codeless errors). */
  get wireCode(): boolean {
    return (CODE_TABLE[this.code] ?? CODE_TABLE.UNKNOWN_ERROR).wire;
  }

  toJSON(): SerializedError {
    const out: SerializedError = {
      name: 'TrawlError',
      code: this.code,
      message: this.message,
      status: this.status,
      retryable: this.retryable,
    };
    if (this.details !== undefined) out.details = this.details;
    if (this.headers !== undefined) out.headers = this.headers;
    return out;
  }

  /** Rebuilds an error that crossed the queue or was read from a job row. */
  static fromJSON(value: SerializedError | Record<string, unknown>): TrawlError {
    const v = value as Partial<SerializedError>;
    const code = (v.code && v.code in CODE_TABLE ? v.code : 'UNKNOWN_ERROR') as ErrorCode;
    return new TrawlError(code, String(v.message ?? 'Unknown error'), {
      status: typeof v.status === 'number' ? v.status : undefined,
      retryable: typeof v.retryable === 'boolean' ? v.retryable : undefined,
      details: v.details,
      headers: v.headers,
    });
  }

  /**
   * Turns anything thrown into a TrawlError. Known errors pass through; serialized ones are revived;
   * everything else becomes `UNKNOWN_ERROR` (500) keeping the original as `cause`.
   */
  static wrap(error: unknown, fallback: ErrorCode = 'UNKNOWN_ERROR'): TrawlError {
    if (error instanceof TrawlError) return error;
    if (error && typeof error === 'object' && (error as { name?: unknown }).name === 'TrawlError') {
      return TrawlError.fromJSON(error as SerializedError);
    }
    const message = error instanceof Error ? error.message : String(error);
    return new TrawlError(fallback, message || 'Unknown error', { cause: error });
  }
}

/** True when `code` is one Trawl knows (used when reviving codes from storage). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in CODE_TABLE;
}
