/**
 * Shared response models: the error envelope (compat.md §1.4) and the Document (compat.md §3), used
 * for the OpenAPI document; and the request `headers` model with its limits (issue 15).
 */
import { Kind, Type, TypeRegistry } from '@sinclair/typebox';

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    code: Type.Optional(Type.String()),
    error: Type.String(),
    details: Type.Optional(Type.Unknown()),
  },
  { $id: '#/components/schemas/Error', description: 'Error envelope (compat.md §1.4)' },
);

export const DocumentModel = Type.Object(
  {
    markdown: Type.Optional(Type.String()),
    html: Type.Optional(Type.String()),
    rawHtml: Type.Optional(Type.String()),
    links: Type.Optional(Type.Array(Type.String())),
    screenshot: Type.Optional(Type.String()),
    actions: Type.Optional(Type.Unknown()),
    warning: Type.Optional(Type.String()),
    metadata: Type.Object(
      {
        sourceURL: Type.String(),
        url: Type.String(),
        statusCode: Type.Integer(),
        scrapeId: Type.String(),
        title: Type.Optional(Type.Unknown()),
        description: Type.Optional(Type.Unknown()),
        language: Type.Optional(Type.Unknown()),
        contentType: Type.Optional(Type.String()),
        creditsUsed: Type.Optional(Type.Number()),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true, description: 'A scraped document (compat.md §3)' },
);

export const errorResponses = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  402: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  408: ErrorEnvelope,
  429: ErrorEnvelope,
  500: ErrorEnvelope,
};

/** Limits of a request's `headers` object (scrape options, webhooks): entries, and bytes of names + values. */
export const HEADER_LIMITS = { entries: 100, bytes: 16 * 1024 } as const;

/** "a string", "an array", "null" ... for messages. */
function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** An HTTP header name: an RFC 7230 token. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value may not contain: CR, LF, NUL. */
const HEADER_VALUE_BAD = /[\r\n\0]/;

/**
 * Why `value` is not a usable headers object, or undefined when it is: an object (not an array) of
 * string values, at most 100 entries and 16 KB of names plus values (UTF-8 bytes), names that are
 * RFC 7230 tokens, values without CR, LF or NUL.
 */
export function headersProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `must be an object of header names to string values, not ${describe(value)}`;
  }
  const entries = Object.entries(value);
  if (entries.length > HEADER_LIMITS.entries) return `has ${entries.length} entries; at most ${HEADER_LIMITS.entries} are accepted`;
  let bytes = 0;
  for (const [name, v] of entries) {
    if (typeof v !== 'string') return `value of "${name.slice(0, 64)}" must be a string, not ${describe(v)}`;
    if (!HEADER_NAME.test(name)) return `name ${JSON.stringify(name.slice(0, 64))} is not a valid header name (RFC 7230 token)`;
    if (HEADER_VALUE_BAD.test(v)) return `value of "${name}" contains CR, LF or NUL`;
    bytes += Buffer.byteLength(name) + Buffer.byteLength(v);
    if (bytes > HEADER_LIMITS.bytes) return `names and values exceed ${HEADER_LIMITS.bytes} bytes in all (16 KB)`;
  }
  return undefined;
}

/**
 * A TypeBox kind for an object-valued field checked by `problem` (undefined: valid). `type` is given as
 * `['object']` on purpose: Elysia's body cleaner (exact-mirror) copies such a schema's value as sent,
 * where for `type: 'object'` or a Record it would first turn a string or array into an object of its
 * characters or items (a 1 MB string becoming a million headers); `explain` lets core/http/errors.ts
 * give the precise reason in the 400.
 */
function checkedObject<T>(kind: string, problem: (value: unknown) => string | undefined, options: Record<string, unknown>) {
  TypeRegistry.Set(kind, (_schema, value) => problem(value) === undefined);
  return Type.Unsafe<T>({ [Kind]: kind, type: ['object'], explain: problem, ...options });
}

/**
 * Request headers to send to a target or webhook receiver: `{ name: value }`, checked by
 * `headersProblem` (entries, bytes, names, values).
 */
export const HeadersModel = checkedObject<Record<string, string>>('TrawlHeaders', headersProblem, {
  additionalProperties: { type: 'string' },
  maxProperties: HEADER_LIMITS.entries,
  description: `Header names (RFC 7230 tokens) to string values without CR/LF/NUL; at most ${HEADER_LIMITS.entries} entries and ${HEADER_LIMITS.bytes} bytes in all.`,
});

/** A JSON object of any values (not an array, string or null), e.g. webhook `metadata`. */
export const JsonObjectModel = checkedObject<Record<string, unknown>>(
  'TrawlJsonObject',
  (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? undefined : `must be an object, not ${describe(v)}`),
  { additionalProperties: true },
);
