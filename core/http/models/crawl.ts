/**
 * TypeBox models of crawl, batch scrape and map (interface.md "Crawl request body", "Crawl status and
 * error records"; compat.md §6–§10). Named and reused by the routes and the generated OpenAPI page.
 * Unknown keys are tolerated at every level (compat.md §1.2); spec fields are strictly typed.
 */
import { Type, type TObject } from '@sinclair/typebox';
import { DocumentModel, HeadersModel, JsonObjectModel } from './common.ts';
import { AuditMetadata } from './scrape.ts';

const Int = (opts: Record<string, unknown> = {}) => Type.Integer(opts);

/** `webhook`: a URL string or `{url, headers?, metadata?, events?}` (compat.md §17). */
export const WebhookModel = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Object(
    {
      url: Type.String({ minLength: 1 }),
      headers: Type.Optional(HeadersModel),
      metadata: Type.Optional(JsonObjectModel),
      events: Type.Optional(Type.Array(Type.String())),
    },
    { additionalProperties: true },
  ),
]);

/** Crawler fields of the crawl request (v2, plus the v1 aliases of compat.md §19). */
export const crawlerFields = {
  url: Type.String({ minLength: 1, description: 'Starting URL' }),
  /** Natural-language crawl request; at most 10,000 characters, like json format prompts (issue 15 item 6). */
  prompt: Type.Optional(Type.String({ maxLength: 10_000, description: 'Natural-language crawl request (at most 10000 characters)' })),
  excludePaths: Type.Optional(Type.Array(Type.String())),
  includePaths: Type.Optional(Type.Array(Type.String())),
  maxDiscoveryDepth: Type.Optional(Int({ minimum: 0 })),
  sitemap: Type.Optional(Type.Union([Type.Literal('skip'), Type.Literal('include'), Type.Literal('only')])),
  ignoreQueryParameters: Type.Optional(Type.Boolean()),
  deduplicateSimilarURLs: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Int({ minimum: 1, description: 'Maximum pages (default 10000)' })),
  crawlEntireDomain: Type.Optional(Type.Boolean()),
  allowExternalLinks: Type.Optional(Type.Boolean()),
  allowSubdomains: Type.Optional(Type.Boolean()),
  ignoreRobotsTxt: Type.Optional(Type.Boolean()),
  robotsUserAgent: Type.Optional(Type.String()),
  delay: Type.Optional(Type.Number({ minimum: 0, maximum: 60, description: 'Seconds between scrapes; forces concurrency 1' })),
  maxConcurrency: Type.Optional(Int({ minimum: 1 })),
  regexOnFullURL: Type.Optional(Type.Boolean()),
  webhook: Type.Optional(WebhookModel),
  zeroDataRetention: Type.Optional(Type.Boolean()),
  auditMetadata: Type.Optional(AuditMetadata),
  origin: Type.Optional(Type.String()),
  integration: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  maxDepth: Type.Optional(Int({ minimum: 0, description: 'v1 alias of maxDiscoveryDepth' })),
  allowBackwardLinks: Type.Optional(Type.Boolean({ description: 'v1 alias of crawlEntireDomain' })),
  ignoreSitemap: Type.Optional(Type.Boolean({ description: 'v1: true means sitemap "skip"' })),
};

/** The crawl request body, with `scrapeOptions` built from the registered formats. */
export function crawlBodyModel(scrapeOptions: TObject) {
  return Type.Object({ ...crawlerFields, scrapeOptions: Type.Optional(scrapeOptions) }, { additionalProperties: true });
}

/** The batch scrape body: `urls` plus the scrape options flattened at top level (compat.md §6). */
export function batchBodyModel(scrapeOptions: TObject) {
  return Type.Object(
    {
      urls: Type.Array(Type.String(), { minItems: 1, maxItems: 10000 }),
      ...scrapeOptions.properties,
      webhook: Type.Optional(WebhookModel),
      appendToId: Type.Optional(Type.String()),
      ignoreInvalidURLs: Type.Optional(Type.Boolean({ default: true })),
      maxConcurrency: Type.Optional(Int({ minimum: 1 })),
    },
    { additionalProperties: true },
  );
}

/** The map request body (compat.md §10). */
export const MapBody = Type.Object(
  {
    url: Type.String({ minLength: 1 }),
    search: Type.Optional(Type.String()),
    sitemap: Type.Optional(Type.Union([Type.Literal('skip'), Type.Literal('include'), Type.Literal('only')])),
    includeSubdomains: Type.Optional(Type.Boolean({ default: true })),
    ignoreQueryParameters: Type.Optional(Type.Boolean({ default: true })),
    limit: Type.Optional(Int({ minimum: 1, maximum: 100000, default: 5000 })),
    timeout: Type.Optional(Int({ minimum: 1, description: 'ms' })),
    ignoreCache: Type.Optional(Type.Boolean()),
    location: Type.Optional(Type.Unknown()),
    threatProtection: Type.Optional(Type.Unknown()),
    auditMetadata: Type.Optional(AuditMetadata),
    ignoreSitemap: Type.Optional(Type.Boolean()),
    sitemapOnly: Type.Optional(Type.Boolean()),
    origin: Type.Optional(Type.String()),
    integration: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: true },
);

export const JobStarted = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
  url: Type.String({ description: 'Absolute status URL' }),
  invalidURLs: Type.Optional(Type.Array(Type.String())),
  promptGeneratedOptions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  finalCrawlerOptions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** Why a `prompt` was not used (no model, an unusable answer): the explicit options apply. */
  warning: Type.Optional(Type.String()),
});

export const JobStatusModel = Type.Object({
  success: Type.Literal(true),
  status: Type.Union([Type.Literal('scraping'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')]),
  completed: Type.Integer({ description: 'Pages scraped successfully' }),
  total: Type.Integer({ description: 'completed + active + queued + backlog (failed pages excluded)' }),
  active: Type.Integer({ description: 'Pages being scraped by a worker now' }),
  queued: Type.Integer({ description: 'Pages handed to the queue, not yet taken by a worker' }),
  backlog: Type.Integer({ description: "Discovered pages waiting for a slot of the job's concurrency window" }),
  creditsUsed: Type.Number(),
  expiresAt: Type.String(),
  createdAt: Type.String(),
  completedAt: Type.Optional(Type.String()),
  duration: Type.Optional(Type.Number({ description: 'seconds' })),
  next: Type.Optional(Type.String()),
  data: Type.Array(DocumentModel),
  warning: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
});

export const JobErrorsModel = Type.Object({
  errors: Type.Array(
    Type.Object({ id: Type.String(), timestamp: Type.String(), url: Type.String(), code: Type.Optional(Type.String()), error: Type.String() }),
  ),
  robotsBlocked: Type.Array(Type.String()),
});

export const CancelledModel = Type.Object({ status: Type.Literal('cancelled') });

export const ActiveCrawlsModel = Type.Object({
  success: Type.Literal(true),
  crawls: Type.Array(
    Type.Object({
      id: Type.String(),
      teamId: Type.String(),
      url: Type.Union([Type.String(), Type.Null()], { description: 'Start URL; null for a zero data retention crawl (its URL is not kept)' }),
      created_at: Type.String(),
      options: Type.Unknown(),
    }),
  ),
});

export const MapResponse = Type.Object({
  success: Type.Literal(true),
  id: Type.Optional(Type.String()),
  links: Type.Array(Type.Object({ url: Type.String(), title: Type.Optional(Type.String()), description: Type.Optional(Type.String()) })),
  warning: Type.Optional(Type.String()),
});

export const JobStatusQuery = Type.Object({
  skip: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
