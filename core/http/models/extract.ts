/**
 * TypeBox models of extract (compat.md §12; issue 19): the request body (v2, and v1 after
 * translation), the start answer and the status. Unknown keys are tolerated (compat.md §1.2); the
 * limits that deserve a sentence (how many `urls`, prompt length, timeout range) are checked by
 * core/extract/request.ts with messages naming them.
 */
import { Type, type TObject } from '@sinclair/typebox';
import { WebhookModel } from './crawl.ts';
import { JsonObjectModel } from './common.ts';

/** The extract request body, with `scrapeOptions` built from the registered formats. */
export function extractBodyModel(scrapeOptions: TObject) {
  return Type.Object(
    {
      urls: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 8192 }), { description: 'Pages to read; a trailing /* reads the pages mapped under it' })),
      prompt: Type.Optional(Type.String({ description: 'What to extract (at most 10000 characters)' })),
      schema: Type.Optional(JsonObjectModel),
      systemPrompt: Type.Optional(Type.String()),
      enableWebSearch: Type.Optional(Type.Boolean({ default: false })),
      ignoreSitemap: Type.Optional(Type.Boolean({ default: false })),
      includeSubdomains: Type.Optional(Type.Boolean({ default: true })),
      showSources: Type.Optional(Type.Boolean({ default: false })),
      ignoreInvalidURLs: Type.Optional(Type.Boolean({ default: true })),
      allowExternalLinks: Type.Optional(Type.Boolean()),
      scrapeOptions: Type.Optional(scrapeOptions),
      webhook: Type.Optional(WebhookModel),
      timeout: Type.Optional(Type.Integer({ description: 'Budget of the whole extract, ms (5000-1800000, default 300000)' })),
      agent: Type.Optional(JsonObjectModel),
      zeroDataRetention: Type.Optional(Type.Boolean()),
      origin: Type.Optional(Type.String()),
      integration: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    },
    { additionalProperties: true },
  );
}

export const ExtractStarted = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
  urlTrace: Type.Array(Type.Unknown()),
  invalidURLs: Type.Optional(Type.Array(Type.String())),
  warning: Type.Optional(Type.String()),
});

export const ExtractStatusModel = Type.Object(
  {
    success: Type.Literal(true),
    id: Type.String(),
    status: Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')]),
    data: Type.Optional(Type.Unknown()),
    error: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
    warning: Type.Optional(Type.String()),
    sources: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    invalidURLs: Type.Optional(Type.Array(Type.String())),
    expiresAt: Type.String(),
    tokensUsed: Type.Number(),
    creditsUsed: Type.Number(),
  },
  { additionalProperties: true },
);

export const ExtractCancelled = Type.Object({ success: Type.Literal(true), status: Type.Literal('cancelled') });
