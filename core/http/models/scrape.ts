/**
 * TypeBox models of the scrape request (interface.md "Scrape request body", "Scrape options", "Action
 * types"; compat.md §1.2, §2). Built with `@sinclair/typebox` (the library behind Elysia's `t`) so the
 * pipeline can import the types without loading Elysia. The `formats` item schema is assembled from the
 * registered format plugins (`scrapeOptionsSchema(formats)`), never hard-coded here.
 */
import { Type, type TSchema, type Static } from '@sinclair/typebox';
import type { ThreatPolicy } from '../../threat/policy.ts';
import { HeadersModel } from './common.ts';

const Int = (opts: Record<string, unknown> = {}) => Type.Integer(opts);

import { Action } from '../../scrape/actions.ts';

export { ActionModels, Action } from '../../scrape/actions.ts';

/** One item of `parsers`: a bare name (`"pdf"`, `"image"`) or the pdf object (interface.md `parsers`). */
export const ParserItem = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Object({
    type: Type.String({ minLength: 1 }),
    mode: Type.Optional(Type.Union([Type.Literal('fast'), Type.Literal('auto'), Type.Literal('ocr')])),
    maxPages: Type.Optional(Int({ minimum: 1, maximum: 10000 })),
    pages: Type.Optional(Type.Boolean()),
    pageMarkdown: Type.Optional(Type.Boolean({ description: 'Alias of pages (compat.md §1.2).' })),
    pageMarkers: Type.Optional(Type.Boolean()),
    blocks: Type.Optional(Type.Boolean()),
  }),
]);

export const Location = Type.Object({
  country: Type.Optional(Type.String({ description: 'ISO 3166-1 alpha-2, upper-cased before the check' })),
  languages: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
});

export const RedactPII = Type.Union([
  Type.Boolean(),
  Type.Object({
    mode: Type.Optional(Type.Union([Type.Literal('accurate'), Type.Literal('aggressive'), Type.Literal('fast')])),
    entities: Type.Optional(
      Type.Array(Type.Union(['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'].map((e) => Type.Literal(e)))),
    ),
    replaceStyle: Type.Optional(Type.Union([Type.Literal('tag'), Type.Literal('mask'), Type.Literal('remove')])),
  }),
]);

/** `auditMetadata` (compat.md §2.2): who asked, shown in the team's activity (GET /v2/team/activity). */
export const AuditMetadata = Type.Object({ username: Type.String({ minLength: 1, maxLength: 256 }) });

/** Scrape option fields other than `formats` (interface.md "Scrape options"). */
export const scrapeOptionFields = {
  actions: Type.Optional(Type.Array(Action, { maxItems: 50 })),
  auditMetadata: Type.Optional(AuditMetadata),
  blockAds: Type.Optional(Type.Boolean({ default: true })),
  excludeTags: Type.Optional(Type.Array(Type.String())),
  headers: Type.Optional(HeadersModel),
  includeTags: Type.Optional(Type.Array(Type.String())),
  location: Type.Optional(Location),
  lockdown: Type.Optional(Type.Boolean({ default: false })),
  maxAge: Type.Optional(Int({ minimum: 0, default: 172800000 })),
  minAge: Type.Optional(Int({ minimum: 1 })),
  mobile: Type.Optional(Type.Boolean({ default: false })),
  onlyCleanContent: Type.Optional(Type.Boolean({ default: false })),
  onlyMainContent: Type.Optional(Type.Boolean({ default: true })),
  parsers: Type.Optional(Type.Array(ParserItem)),
  profile: Type.Optional(
    Type.Object({ name: Type.String({ minLength: 1, maxLength: 128 }), saveChanges: Type.Optional(Type.Boolean({ default: true })) }),
  ),
  proxy: Type.Optional(
    Type.Union([Type.Literal('basic'), Type.Literal('enhanced'), Type.Literal('auto'), Type.Literal('stealth')], { default: 'auto' }),
  ),
  redactPII: Type.Optional(RedactPII),
  removeBase64Images: Type.Optional(Type.Boolean({ default: true })),
  skipTlsVerification: Type.Optional(Type.Boolean({ default: true })),
  storeInCache: Type.Optional(Type.Boolean({ default: true })),
  threatProtection: Type.Optional(
    Type.Object({
      mode: Type.Optional(Type.Union(['off', 'manual-only', 'normal', 'zscaler'].map((m) => Type.Literal(m)))),
      blacklist: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })),
      whitelist: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })),
      blockedTlds: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })),
      riskScoreThreshold: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
      failurePolicy: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
    }),
  ),
  timeout: Type.Optional(Int({ minimum: 1000, maximum: 300000, default: 60000 })),
  waitFor: Type.Optional(Int({ minimum: 0, maximum: 60000, default: 0 })),
  zeroDataRetention: Type.Optional(Type.Boolean({ default: false })),
  origin: Type.Optional(Type.String()),
  integration: Type.Optional(Type.Union([Type.String(), Type.Null()])),
};

/** A format as the request gives it: a name, or an object `{ type, ...options }`. */
export const FormatItemBase = Type.Union([Type.String({ minLength: 1 }), Type.Object({ type: Type.String({ minLength: 1 }) })]);

/**
 * The scrape options object. A `formats` item is any name or `{ type, ...options }` object: the
 * format plugins check names and options afterwards (core/pipeline/scrape-options.ts
 * `resolveFormats`), so an unknown format gets a 400 naming it and the supported ones, and a new
 * format needs no edit here.
 * @param formats the registered format plugins (their names describe the field in the OpenAPI page)
 */
export function scrapeOptionsSchema(formats: { name: string; options?: TSchema; stringForm?: boolean }[]) {
  const item = Type.Union([Type.String({ minLength: 1 }), Type.Object({ type: Type.String({ minLength: 1 }) }, { additionalProperties: true })], {
    description: `A format name, or an object { type, ...options }. Formats: ${formats.map((f) => f.name).join(', ')}.`,
  });
  return Type.Object({ formats: Type.Optional(Type.Array(item)), ...scrapeOptionFields }, { additionalProperties: true });
}

export type { FormatSpec, ScrapeOptions } from '../../scrape/options.ts';
