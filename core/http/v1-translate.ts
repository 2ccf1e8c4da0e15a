/**
 * v1 request and response forms translated to and from v2 (compat.md §19). Pure functions: the v1
 * routes (core/http/routes/v1.ts) forward the translated request to the v2 route and translate its
 * answer back, so v1 and v2 share validation, admission (key restrictions, credits, rate limits) and
 * the pipeline. `v1CrawlRequest` and `v1BatchRequest` apply the same scrape-option translation to v1 crawl
 * `scrapeOptions` and v1 batch bodies (the routes in crawl.ts and batch.ts call them before validation).
 */

type Json = Record<string, any>;

/** v1 scrape option names that have no v2 field of the same name. */
const V1_ONLY = ['jsonOptions', 'changeTrackingOptions', 'parsePDF', 'extract'];

/**
 * v1 scrape options -> v2 scrape options. String formats only in v1: `screenshot@fullPage` becomes
 * `{type: screenshot, fullPage: true}`, `json` takes `jsonOptions {prompt, schema, systemPrompt}`,
 * `changeTracking` takes `changeTrackingOptions`; `parsePDF: false` is `parsers: []`. v1 defaults:
 * `maxAge` 0, `timeout` 30000 (with `json`/`extract`/`changeTracking`: the v2 default, at least
 * 60000), `skipTlsVerification` false. `extract` is v1's older name of `json` (options in `extract`,
 * else `jsonOptions`).
 */
export function v1ScrapeOptions(v1: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(v1)) if (!V1_ONLY.includes(k)) out[k] = v;
  // JSON mode and change tracking keep the v2 default timeout (60 s, compat.md §2.2), not v1's 30 s.
  let modelTimeout = false;
  if (Array.isArray(v1.formats)) {
    out.formats = v1.formats.map((f: unknown) => {
      if (typeof f !== 'string') return f;
      if (f === 'screenshot@fullPage') return { type: 'screenshot', fullPage: true };
      if (f === 'json' || f === 'extract' || f === 'changeTracking') modelTimeout = true;
      if (f === 'json' || f === 'extract') {
        const o = (f === 'json' ? v1.jsonOptions : v1.extract ?? v1.jsonOptions) ?? {};
        const prompt = [o.systemPrompt, o.prompt].filter(Boolean).join('\n\n') || undefined;
        return { type: 'json', ...(prompt ? { prompt } : {}), ...(o.schema ? { schema: o.schema } : {}) };
      }
      if (f === 'changeTracking') return { type: 'changeTracking', ...(v1.changeTrackingOptions ?? {}) };
      return f;
    });
  }
  if (v1.parsePDF === false && v1.parsers === undefined) out.parsers = [];
  out.maxAge ??= 0;
  if (!modelTimeout) out.timeout ??= 30_000;
  out.skipTlsVerification ??= false;
  return out;
}

/** v1 crawl `maxDepth` default (compat.md §19), applied when neither depth field is given. */
export const V1_CRAWL_MAX_DEPTH = 10;

/** A JSON object (not null, not an array). */
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * v1 crawl request -> v2: `scrapeOptions` translated as v1 scrape options, `maxDepth` defaults to 10,
 * and `prompt` is dropped (v1 crawl never had it; unknown keys are ignored, compat.md §1.2).
 * `maxDepth`, `allowBackwardLinks` and `ignoreSitemap` stay: core/crawl/options.ts reads them.
 */
export function v1CrawlRequest(v1: Json): Json {
  const { prompt: _prompt, scrapeOptions, ...rest } = v1;
  const out: Json = { ...rest, scrapeOptions: v1ScrapeOptions(isObject(scrapeOptions) ? scrapeOptions : {}) };
  if (out.maxDepth === undefined && out.maxDiscoveryDepth === undefined) out.maxDepth = V1_CRAWL_MAX_DEPTH;
  return out;
}

/** v1 batch scrape request -> v2: the flat body carries v1 scrape options next to `urls`. */
export function v1BatchRequest(v1: Json): Json {
  return v1ScrapeOptions(v1);
}

/**
 * v1 search request -> v2: `limit` defaults to 5, web results only, v1 scrape options. A
 * `scrapeOptions` that is not an object is passed on unchanged to the v2 route: null is absent there,
 * anything else a 400 naming the field (it used to be a 500 here).
 */
export function v1SearchRequest(v1: Json): Json {
  const { scrapeOptions, ...rest } = v1;
  const out: Json = { ...rest, limit: v1.limit ?? 5 };
  delete out.sources;
  delete out.categories;
  if (scrapeOptions !== undefined) out.scrapeOptions = isObject(scrapeOptions) ? v1ScrapeOptions(scrapeOptions) : scrapeOptions;
  return out;
}

/** v2 search response -> v1: `data` is a flat array of the results (scraped fields merged). */
export function v1SearchResponse(v2: Json): Json {
  if (!v2 || v2.success !== true || Array.isArray(v2.data)) return v2;
  const groups = v2.data ?? {};
  const data = [...(groups.web ?? []), ...(groups.news ?? [])];
  const out: Json = { success: true, data };
  for (const k of ['warning', 'id', 'creditsUsed']) if (v2[k] !== undefined) out[k] = v2[k];
  return out;
}

/**
 * v1 extract request -> v2: the same fields; `scrapeOptions` holds v1 scrape options (compat.md §19),
 * translated as for a v1 page with JSON mode (v2 default timeout, `maxAge` 0). Its `formats` stay as
 * sent: the extract route replaces them and warns.
 */
export function v1ExtractRequest(v1: Json): Json {
  if (!isObject(v1.scrapeOptions)) return v1;
  const { formats: _formats, ...options } = v1ScrapeOptions({ ...v1.scrapeOptions, formats: ['json'] });
  const given = v1.scrapeOptions.formats;
  return { ...v1, scrapeOptions: { ...options, ...(given !== undefined ? { formats: given } : {}) } };
}
