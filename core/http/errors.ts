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
  summary?: string;
  value?: unknown;
}

/** Turns Elysia's validation error into BAD_REQUEST with one readable message and `details` issues. */
function fromValidation(error: unknown): TrawlError {
  const all = ((error as { all?: ValidationIssue[] }).all ?? []) as ValidationIssue[];
  const details = all.slice(0, 20).map((i) => ({ path: i.path || '/', message: i.summary ?? i.message ?? 'invalid value' }));
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
