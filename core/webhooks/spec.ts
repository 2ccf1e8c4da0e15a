/**
 * The `webhook` option of crawl and batch requests (compat.md §17): a URL string or
 * `{url, headers?, metadata?, events?}`. `events` filters by subtype (`page`) or full name
 * (`crawl.page`); without it every event is sent, `cancelled` included. Users cannot set the
 * signature headers.
 */
import { TrawlError } from '../errors.ts';

export interface WebhookSpec {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  /** Subtypes or full names; undefined = all. */
  events?: string[];
}

const RESERVED_HEADERS = new Set(['x-service-signature', 'x-firecrawl-signature', 'content-type', 'content-length', 'host']);

/**
 * Resolves the `webhook` field.
 * @returns undefined when absent
 * @throws TrawlError BAD_REQUEST for a URL that is not absolute http(s)
 */
export function resolveWebhook(raw: unknown): WebhookSpec | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const obj = (typeof raw === 'string' ? { url: raw } : raw) as Record<string, any>;
  let url: URL;
  try {
    url = new URL(String(obj.url ?? ''));
  } catch {
    throw new TrawlError('BAD_REQUEST', 'webhook.url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TrawlError('BAD_REQUEST', 'webhook.url must be an http(s) URL');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries((obj.headers ?? {}) as Record<string, unknown>)) {
    if (!RESERVED_HEADERS.has(k.toLowerCase()) && typeof v === 'string') headers[k] = v;
  }
  const metadata = obj.metadata && typeof obj.metadata === 'object' && !Array.isArray(obj.metadata) ? (obj.metadata as Record<string, unknown>) : {};
  const events = Array.isArray(obj.events) ? obj.events.map((e: unknown) => String(e)) : undefined;
  return { url: url.href, headers, metadata, events };
}

/** Whether the spec asks for `type` (e.g. `crawl.page`, `batch_scrape.completed`). */
export function wantsEvent(spec: WebhookSpec, type: string): boolean {
  if (!spec.events) return true;
  const sub = type.slice(type.indexOf('.') + 1);
  return spec.events.some((e) => e === type || e === sub);
}
