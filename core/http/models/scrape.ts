/**
 * TypeBox models of the scrape request (interface.md "Scrape request body", "Scrape options", "Action
 * types"; compat.md §1.2, §2). Built with `@sinclair/typebox` (the library behind Elysia's `t`) so the
 * pipeline can import the types without loading Elysia. The `formats` item schema is assembled from the
 * registered format plugins (`scrapeOptionsSchema(formats)`), never hard-coded here.
 */
import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { HeadersModel } from './common.ts';

const Int = (opts: Record<string, unknown> = {}) => Type.Integer(opts);

/** Action types (interface.md "Action types"); `type` is the discriminator. */
export const ActionModels = {
  wait: Type.Object(
    {
      type: Type.Literal('wait'),
      milliseconds: Type.Optional(Int({ minimum: 1 })),
      selector: Type.Optional(Type.String({ minLength: 1 })),
    },
    { additionalProperties: false, description: 'Exactly one of milliseconds or selector.' },
  ),
  screenshot: Type.Object({
    type: Type.Literal('screenshot'),
    fullPage: Type.Optional(Type.Boolean()),
    quality: Type.Optional(Int({ minimum: 1, maximum: 100 })),
    viewport: Type.Optional(Type.Object({ width: Int({ minimum: 1, maximum: 7680 }), height: Int({ minimum: 1, maximum: 4320 }) })),
  }),
  click: Type.Object({ type: Type.Literal('click'), selector: Type.String({ minLength: 1 }), all: Type.Optional(Type.Boolean()) }),
  write: Type.Object({ type: Type.Literal('write'), text: Type.String() }),
  press: Type.Object({ type: Type.Literal('press'), key: Type.String({ minLength: 1 }) }),
  scroll: Type.Object({
    type: Type.Literal('scroll'),
    direction: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('down')])),
    selector: Type.Optional(Type.String({ minLength: 1 })),
  }),
  scrape: Type.Object({ type: Type.Literal('scrape') }),
  executeJavascript: Type.Object({ type: Type.Literal('executeJavascript'), script: Type.String() }),
  pdf: Type.Object({
    type: Type.Literal('pdf'),
    format: Type.Optional(
      Type.Union(['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'].map((f) => Type.Literal(f))),
    ),
    landscape: Type.Optional(Type.Boolean()),
    scale: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2 })),
  }),
};

export const Action = Type.Union(Object.values(ActionModels), { $id: undefined });
export type Action = Static<typeof Action>;

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

/** Scrape option fields other than `formats` (interface.md "Scrape options"). */
export const scrapeOptionFields = {
  actions: Type.Optional(Type.Array(Action, { maxItems: 50 })),
  auditMetadata: Type.Optional(Type.Object({ username: Type.String() })),
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
      mode: Type.Optional(Type.String()),
      blacklist: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })),
      whitelist: Type.Optional(Type.Array(Type.String(), { maxItems: 1000 })),
      blockedTlds: Type.Optional(Type.Array(Type.String())),
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
 * The scrape options object with `formats` built from the registered format plugins.
 * @param formats `[name, optionsSchema?, stringForm]` for each format plugin.
 */
export function scrapeOptionsSchema(formats: { name: string; options?: TSchema; stringForm?: boolean }[]) {
  const names = formats.filter((f) => f.stringForm !== false).map((f) => Type.Literal(f.name));
  const objects = formats.map((f) =>
    Type.Object({ type: Type.Literal(f.name), ...(f.options ? (f.options as any).properties ?? {} : {}) }),
  );
  const item = Type.Union([...names, ...objects]);
  return Type.Object({ formats: Type.Optional(Type.Array(item)), ...scrapeOptionFields }, { additionalProperties: true });
}

/** A normalized format: always the object form. */
export interface FormatSpec {
  type: string;
  [option: string]: unknown;
}

/** Scrape options after defaults (core/pipeline/scrape-options.ts resolves them). */
export interface ScrapeOptions {
  formats: FormatSpec[];
  actions?: Action[];
  blockAds: boolean;
  excludeTags?: string[];
  headers?: Record<string, string>;
  includeTags?: string[];
  location?: { country: string; languages?: string[] };
  lockdown: boolean;
  maxAge: number;
  minAge?: number;
  mobile: boolean;
  onlyCleanContent: boolean;
  onlyMainContent: boolean;
  /** Normalized parser list; default `[{ type: 'pdf' }]`. */
  parsers: { type: string; mode?: 'fast' | 'auto' | 'ocr'; maxPages?: number; pages?: boolean; pageMarkers?: boolean; blocks?: boolean }[];
  profile?: { name: string; saveChanges: boolean };
  /** `stealth` is normalized to `enhanced` (compat.md §1.2). */
  proxy: 'basic' | 'enhanced' | 'auto';
  redactPII?: boolean | { mode?: string; entities?: string[]; replaceStyle?: string };
  removeBase64Images: boolean;
  skipTlsVerification: boolean;
  storeInCache: boolean;
  threatProtection?: Record<string, unknown>;
  /** ms, 1000 to 300000. */
  timeout: number;
  /** ms. */
  waitFor: number;
  zeroDataRetention: boolean;
}
