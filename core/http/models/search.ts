/**
 * TypeBox models of search (interface.md "Search request body", "Search response"; compat.md §11):
 * `POST /v2/search`, the research paper endpoints and feedback. Shapes only; the cross-field rules
 * (developer alone, include vs exclude domains, query length, tbs syntax) live in
 * core/search/request.ts so their messages can say what to change.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { scrapeOptionsSchema } from './scrape.ts';

const SourceName = Type.Union(['web', 'news', 'images', 'alexandria'].map((s) => Type.Literal(s)));
const CategoryName = Type.Union(['research', 'pdf', 'developer', 'github'].map((s) => Type.Literal(s)));

/** `sources` item: a name or `{ type, tbs?, location? }` (compat.md §11.1). */
export const SourceItem = Type.Union([
  SourceName,
  Type.Object({ type: SourceName, tbs: Type.Optional(Type.String()), location: Type.Optional(Type.String()) }, { additionalProperties: true }),
]);

export const CategoryItem = Type.Union([CategoryName, Type.Object({ type: CategoryName }, { additionalProperties: true })]);

/** The search request body; `scrapeOptions` is built from the registered format plugins. */
export function searchBodySchema(formats: { name: string; options?: TSchema; stringForm?: boolean }[]) {
  return Type.Object(
    {
      query: Type.String({ description: 'Search query; operators such as site:, -site:, filetype: pass through. At most 2000 characters.' }),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'Results per source' })),
      sources: Type.Optional(Type.Array(SourceItem, { maxItems: 10, description: 'web (default), news, images' })),
      categories: Type.Optional(Type.Array(CategoryItem, { maxItems: 10 })),
      includeDomains: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
      excludeDomains: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
      location: Type.Optional(Type.String({ maxLength: 200 })),
      country: Type.Optional(Type.String({ maxLength: 8, description: 'ISO 3166-1 alpha-2 (default US)' })),
      lang: Type.Optional(Type.String({ maxLength: 16 })),
      tbs: Type.Optional(Type.String({ maxLength: 200 })),
      timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 300000, default: 60000, description: 'ms' })),
      safe: Type.Optional(Type.Boolean()),
      highlights: Type.Optional(Type.Boolean({ default: true })),
      enterprise: Type.Optional(Type.Array(Type.Union(['default', 'anon', 'zdr'].map((s) => Type.Literal(s))), { maxItems: 3 })),
      ignoreInvalidURLs: Type.Optional(Type.Boolean({ default: false })),
      scrapeOptions: Type.Optional(scrapeOptionsSchema(formats)),
      origin: Type.Optional(Type.String()),
      integration: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    },
    { additionalProperties: true },
  );
}

const WebItem = Type.Object(
  {
    url: Type.String(),
    title: Type.String(),
    description: Type.String(),
    position: Type.Integer(),
    category: Type.Optional(Type.String()),
  },
  { additionalProperties: true, description: 'With scrapeOptions the scraped Document fields are merged in.' },
);
const NewsItem = Type.Object(
  {
    title: Type.String(),
    url: Type.String(),
    snippet: Type.String(),
    date: Type.Optional(Type.String()),
    imageUrl: Type.Optional(Type.String()),
    position: Type.Integer(),
    category: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
const ImageItem = Type.Object({
  title: Type.String(),
  imageUrl: Type.String(),
  imageWidth: Type.Integer(),
  imageHeight: Type.Integer(),
  url: Type.String(),
  position: Type.Integer(),
});

export const PaperResultModel = Type.Object({
  paperId: Type.String(),
  primaryId: Type.String(),
  ids: Type.Record(Type.String(), Type.Array(Type.String())),
  title: Type.String(),
  abstract: Type.String(),
  score: Type.Number(),
  signals: Type.Optional(
    Type.Object({ structural: Type.Number(), semantic: Type.Number(), articleRank: Type.Number(), seedOverlap: Type.Number() }),
  ),
});

export const SearchResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    web: Type.Optional(Type.Array(WebItem)),
    news: Type.Optional(Type.Array(NewsItem)),
    images: Type.Optional(Type.Array(ImageItem)),
    research: Type.Optional(Type.Array(PaperResultModel)),
  }),
  creditsUsed: Type.Integer(),
  id: Type.String({ description: 'Search job id, for POST /v2/search/{jobId}/feedback' }),
  warning: Type.Optional(Type.String()),
  warnings: Type.Optional(Type.Array(Type.String())),
});

export const FeedbackBody = Type.Object(
  {
    rating: Type.Union([Type.Literal('good'), Type.Literal('partial'), Type.Literal('bad')]),
    valuableSources: Type.Optional(Type.Array(Type.Object({ url: Type.String(), reason: Type.Optional(Type.String()) }), { maxItems: 100 })),
    missingContent: Type.Optional(
      Type.Array(Type.Object({ topic: Type.String(), description: Type.Optional(Type.String()) }), { maxItems: 100 }),
    ),
    querySuggestions: Type.Optional(Type.String({ maxLength: 10000 })),
    origin: Type.Optional(Type.String()),
    integration: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: true },
);

export const EndpointFeedbackBody = Type.Composite([
  FeedbackBody,
  Type.Object({
    endpoint: Type.Union(['search', 'scrape', 'parse', 'map'].map((s) => Type.Literal(s))),
    jobId: Type.String({ minLength: 1 }),
    issues: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })),
    note: Type.Optional(Type.String({ maxLength: 10000 })),
  }),
], { additionalProperties: true });

export const FeedbackResponse = Type.Object({
  success: Type.Literal(true),
  feedbackId: Type.String(),
  creditsRefunded: Type.Integer(),
  alreadySubmitted: Type.Optional(Type.Boolean()),
  dailyCapReached: Type.Optional(Type.Boolean()),
  creditsRefundedToday: Type.Optional(Type.Integer()),
  dailyRefundCap: Type.Optional(Type.Integer()),
  warning: Type.Optional(Type.String()),
});

/** Problem details (RFC 9457), the error shape of the research endpoints (compat.md §11.2). */
export const ProblemDetails = Type.Object({
  type: Type.String(),
  title: Type.String(),
  detail: Type.String(),
  status: Type.Integer(),
});
