/**
 * The one place errors become HTTP responses: the wire envelope of compat.md §1.4,
 * `{ success: false, code?, error, details? }`, with the error's status and headers (`Retry-After`).
 * Routes throw TrawlError; they never build error bodies by hand.
 */
import { TrawlError } from '../errors.ts';
import type { Logger } from '../log.ts';

/** Builds the JSON error response for a TrawlError. */
export function errorResponse(error: TrawlError): Response {
  const body: Record<string, unknown> = { success: false };
  if (error.wireCode) body.code = error.code;
  body.error = error.message;
  if (error.details !== undefined) body.details = error.details;
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(error.headers ?? {}) },
  });
}

interface ValidationIssue {
  path?: string;
  message?: string;
  value?: unknown;
  schema?: { error?: unknown; explain?: (value: unknown) => string | undefined };
  /** For a union: each variant's errors (TypeBox ValueErrorIterator). */
  errors?: Iterable<ValidationIssue>[];
}

/**
 * The most telling issue of a union mismatch: the first error of the variant that got deepest into
 * the value (`webhook: {url, headers: 1}` reports /webhook/headers, not "Expected union value").
 */
function deepest(issue: ValidationIssue): ValidationIssue {
  let best = issue;
  for (const variant of issue.errors ?? []) {
    for (const inner of variant) {
      if ((inner.path ?? '').length > (best.path ?? '').length) best = deepest(inner);
      break;
    }
  }
  return best;
}

/** Longest message text taken from one validation issue, characters. */
const MAX_ISSUE_CHARS = 300;

/**
 * One issue's message without the offending value: a model's own `explain(value)` (e.g. the headers
 * limits), its `error` text, or TypeBox's message ("Expected string"). Elysia's `summary` is not used:
 * it echoes the value ("... but found: <the whole value>").
 */
function issueMessage(issue: ValidationIssue): string {
  const explained = typeof issue.schema?.explain === 'function' ? issue.schema.explain(issue.value) : undefined;
  const text = explained ?? (typeof issue.schema?.error === 'string' ? issue.schema.error : issue.message) ?? 'invalid value';
  return text.length > MAX_ISSUE_CHARS ? `${text.slice(0, MAX_ISSUE_CHARS)}…` : text;
}

/**
 * Turns Elysia's validation error into BAD_REQUEST with one readable message and `details` issues
 * (path and message, at most 20). Never echoes or pretty-prints the request body.
 */
function fromValidation(error: unknown): TrawlError {
  const all = ((error as { all?: ValidationIssue[] }).all ?? []) as ValidationIssue[];
  const details = all.slice(0, 20).map(deepest).map((i) => ({ path: (i.path || '/').slice(0, MAX_ISSUE_CHARS), message: issueMessage(i) }));
  const first = details[0];
  const message = first ? `Invalid request body: ${first.path} ${first.message}`.replace(/\s+/g, ' ') : 'Invalid request body';
  return new TrawlError('BAD_REQUEST', message, { details });
}

/**
 * Maps anything thrown in a route (Elysia codes included) to a TrawlError.
 * @param code Elysia's error code (`VALIDATION`, `PARSE`, `NOT_FOUND` ...) or a custom error name
 */
export function toTrawlError(code: string | number, error: unknown, log: Logger): TrawlError {
  if (error instanceof TrawlError) return error;
  switch (code) {
    case 'VALIDATION':
      return fromValidation(error);
    case 'PARSE':
      // Errors of our body reader (core/http/body.ts) arrive wrapped in Elysia's ParseError.
      if ((error as { cause?: unknown })?.cause instanceof TrawlError) return (error as { cause: TrawlError }).cause;
      return new TrawlError('BAD_REQUEST_INVALID_JSON', 'The request body is not valid JSON. Send a JSON object with Content-Type: application/json.');
    case 'NOT_FOUND':
      return new TrawlError('NOT_FOUND', 'Not found. See /docs for the API reference.');
    case 'INVALID_COOKIE_SIGNATURE':
      return new TrawlError('BAD_REQUEST', 'Invalid cookie signature');
    default: {
      const status = (error as { status?: number })?.status;
      if (status === 413) return new TrawlError('PAYLOAD_TOO_LARGE', 'The request body is too large (at most 10 MB).');
      log.error({ err: error }, 'unhandled error');
      return new TrawlError('UNKNOWN_ERROR', 'An unexpected error occurred. It has been logged; retry shortly.', { cause: error });
    }
  }
}

/** A JSON response from an already-serialized body (keeps document bytes stable, compat.md §3). */
export function rawJson(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}
