/**
 * The HTTP search providers (Brave, Serper, Google Programmable Search) against fakes in test/fakes
 * that follow each API's documented request and response shapes, errors and slowness; and the
 * provider fallback of core/search/providers.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { loadConfig, type ResolvedConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { Registry } from '../../core/registry.ts';
import { TrawlError } from '../../core/errors.ts';
import type { SearchContext, SearchQuery, SearchProviderPlugin } from '../../core/plugin.ts';
import { searchWithFallback } from '../../core/search/providers.ts';
import { startFakeBrave, BRAVE_KEY } from '../fakes/brave.ts';
import { startFakeSerper, SERPER_KEY } from '../fakes/serper.ts';
import { startFakeGoogle, GOOGLE_CX, GOOGLE_KEY } from '../fakes/google-cse.ts';
import type { Fake } from '../fakes/server.ts';

let brave: Fake;
let serper: Fake;
let google: Fake;
let config: ResolvedConfig;
const registry = new Registry();

function configWith(extra: Record<string, string> = {}): ResolvedConfig {
  return loadConfig({
    TRAWL_LOG_LEVEL: 'silent',
    BRAVE_API_KEY: BRAVE_KEY,
    BRAVE_API_URL: `${brave.origin}/res/v1`,
    SERPER_API_KEY: SERPER_KEY,
    SERPER_API_URL: serper.origin,
    GOOGLE_CSE_KEY: GOOGLE_KEY,
    GOOGLE_CSE_ID: GOOGLE_CX,
    GOOGLE_CSE_URL: `${google.origin}/customsearch/v1`,
    ...extra,
  });
}

function ctx(timeoutMs = 5_000, cfg = config): SearchContext {
  return {
    config: cfg,
    log: silentLogger,
    signal: AbortSignal.timeout(timeoutMs),
    deadline: Date.now() + timeoutMs,
    blobs: {} as never,
    db: { query: async () => [] },
  };
}

const q = (over: Partial<SearchQuery> = {}): SearchQuery => ({ query: 'tide', source: 'web', limit: 10, timeoutMs: 5_000, country: 'US', ...over });
const provider = (name: string) => registry.get('search-provider', name) as Promise<SearchProviderPlugin>;

async function failure(p: Promise<unknown>): Promise<TrawlError> {
  try {
    await p;
  } catch (e) {
    return TrawlError.wrap(e);
  }
  throw new Error('expected a failure');
}

beforeAll(() => {
  brave = startFakeBrave();
  serper = startFakeSerper();
  google = startFakeGoogle();
  config = configWith();
});
afterAll(() => [brave, serper, google].forEach((f) => f.stop()));
beforeEach(() => {
  for (const f of [brave, serper, google]) {
    f.mode = 'ok';
    f.requests.length = 0;
  }
});

describe('brave', () => {
  test('web: documented request and mapped results', async () => {
    const p = await provider('brave');
    expect(p.configured(config)).toBe(true);
    expect(p.configured(loadConfig({}))).toBe(false);
    const hits = await p.search(q({ query: 'tide tables', lang: 'en', safe: true, tbs: 'qdr:w' }), ctx());
    const r = brave.requests[0];
    expect(r.path).toBe('/res/v1/web/search');
    expect(r.headers.get('x-subscription-token')).toBe(BRAVE_KEY);
    expect(Object.fromEntries(r.query)).toMatchObject({ q: 'tide tables', count: '10', offset: '0', country: 'US', search_lang: 'en', safesearch: 'strict', freshness: 'pw', extra_snippets: 'true' });
    expect(hits.map((h) => h.url)).toEqual(['https://coast.example/tides']);
    expect(hits[0].title).toBe('Tide tables of the North Sea');
    expect(hits[0].description).not.toContain('<strong>');
    // highlights: the most query-relevant of the description and the extra snippets (both words here)
    expect(hits[0].description).toBe('Extra: Tide tables of the North Sea in detail.');
    expect(hits[0].publishedAt).toBe('2026-11-19T08:00:00.000Z');
  });

  test('highlights false: the plain description, no extra snippets asked', async () => {
    const hits = await (await provider('brave')).search(q({ highlights: false }), ctx());
    expect(brave.requests[0].query.has('extra_snippets')).toBe(false);
    expect(hits[0].description).toBe('How the tide rises twice a day along the North Sea coast.');
  });

  test('news and images', async () => {
    const p = await provider('brave');
    const news = await p.search(q({ source: 'news' }), ctx());
    expect(brave.requests[0].path).toBe('/res/v1/news/search');
    expect(news[0]).toMatchObject({ url: 'https://coast.example/tides', date: '2 days ago', imageUrl: 'https://coast.example/img/tide.jpg' });
    const images = await p.search(q({ source: 'images' }), ctx());
    expect(brave.requests[1].path).toBe('/res/v1/images/search');
    expect(images[0]).toMatchObject({ imageUrl: 'https://coast.example/img/tide.jpg', imageWidth: 1200, imageHeight: 800, url: 'https://coast.example/tides' });
  });

  test('paging: limit above one page reads further pages while they are full', async () => {
    await (await provider('brave')).search(q({ limit: 45 }), ctx());
    expect(brave.requests.map((r) => [r.query.get('count'), r.query.get('offset')])).toEqual([['20', '0']]);
  });

  test('errors and timeouts name the provider and the cause', async () => {
    const p = await provider('brave');
    brave.mode = 'unauthorized';
    const e401 = await failure(p.search(q(), ctx()));
    expect(e401.message).toBe('[brave] HTTP 401: SUBSCRIPTION_TOKEN_INVALID: The provided subscription token is invalid.');
    brave.mode = 'rate-limited';
    expect((await failure(p.search(q(), ctx()))).message).toContain('HTTP 429: RATE_LIMITED');
    brave.mode = 'not-json';
    expect((await failure(p.search(q(), ctx()))).message).toContain('not JSON');
    brave.mode = 'slow';
    brave.slowMs = 30_000;
    const started = Date.now();
    const slow = await failure(p.search(q(), ctx(300)));
    expect(slow.code).toBe('GATEWAY_TIMEOUT');
    expect(slow.message).toContain('[brave] no answer within');
    expect(Date.now() - started).toBeLessThan(20_000); // far below the provider's 30 s: a hang bound only
  });
});

describe('serper', () => {
  test('web: POST with the documented body and header', async () => {
    const hits = await (await provider('serper')).search(q({ query: 'tides', lang: 'de', location: 'Hamburg, Germany', tbs: 'qdr:m', limit: 15 }), ctx());
    const r = serper.requests[0];
    expect([r.method, r.path, r.headers.get('x-api-key')]).toEqual(['POST', '/search', SERPER_KEY]);
    expect(r.body).toEqual({ q: 'tides', num: 20, gl: 'us', hl: 'de', location: 'Hamburg, Germany', tbs: 'qdr:m' });
    expect(hits.map((h) => h.url)).toContain('https://sailing.example/learn/tides');
    expect(hits.every((h) => h.title && h.description)).toBe(true);
  });

  test('news and images', async () => {
    const p = await provider('serper');
    const news = await p.search(q({ source: 'news' }), ctx());
    expect(serper.requests[0].path).toBe('/news');
    expect(news[0]).toMatchObject({ title: 'Tide tables of the North Sea', date: '2 days ago' });
    const images = await p.search(q({ source: 'images' }), ctx());
    expect(serper.requests[1].path).toBe('/images');
    expect(images[0]).toMatchObject({ imageUrl: 'https://coast.example/img/tide.jpg', imageWidth: 1200, imageHeight: 800 });
  });

  test('errors', async () => {
    const p = await provider('serper');
    serper.mode = 'unauthorized';
    expect((await failure(p.search(q(), ctx()))).message).toBe('[serper] HTTP 403: Unauthorized.');
    serper.mode = 'server-error';
    expect((await failure(p.search(q(), ctx()))).message).toBe('[serper] HTTP 500: Internal server error');
  });
});

describe('google programmable search', () => {
  test('web: key, cx, num ≤ 10 with start paging, date restriction, language', async () => {
    const p = await provider('google');
    expect(p.sources).toEqual(['web', 'images']);
    const hits = await p.search(q({ query: 'tide', limit: 3, tbs: 'qdr:d3', lang: 'en', safe: true }), ctx());
    const r = google.requests[0];
    expect(Object.fromEntries(r.query)).toMatchObject({ key: GOOGLE_KEY, cx: GOOGLE_CX, q: 'tide', num: '3', start: '1', dateRestrict: 'd3', safe: 'active', gl: 'us', hl: 'en', lr: 'lang_en' });
    expect(hits).toHaveLength(3);
    expect(hits[0].description).toStartWith('Nov 19, 2026');
    await p.search(q({ query: 'tide', limit: 15 }), ctx());
    expect(google.requests.slice(1).map((x) => [x.query.get('num'), x.query.get('start')])).toEqual([['10', '1']]);
    await p.search(q({ tbs: 'cdr:1,cd_min:1/1/2026,cd_max:1/31/2026' }), ctx());
    expect(google.requests.at(-1)!.query.get('sort')).toBe('date:r:20260101:20260131');
  });

  test('highlights false uses the page meta description; images use searchType=image', async () => {
    const p = await provider('google');
    const plain = await p.search(q({ highlights: false, limit: 1 }), ctx());
    expect(plain[0].description).toBe('Meta: How the tide rises twice a day along the North Sea coast.');
    const images = await p.search(q({ source: 'images' }), ctx());
    expect(google.requests.at(-1)!.query.get('searchType')).toBe('image');
    expect(images[0]).toMatchObject({ url: 'https://coast.example/tides', imageUrl: 'https://coast.example/img/tide.jpg', imageWidth: 1200 });
  });

  test('no items key when nothing matches; errors', async () => {
    const p = await provider('google');
    expect(await p.search(q({ query: 'volcano' }), ctx())).toEqual([]);
    google.mode = 'rate-limited';
    expect((await failure(p.search(q(), ctx()))).message).toContain('[google] HTTP 429: RESOURCE_EXHAUSTED');
    google.mode = 'ok';
    const badKey = configWith({ GOOGLE_CSE_KEY: 'wrong' });
    expect((await failure(p.search(q(), ctx(5_000, badKey)))).message).toBe('[google] HTTP 400: INVALID_ARGUMENT: API key not valid. Please pass a valid API key.');
  });
});

describe('provider fallback', () => {
  const deps = (cfg: ResolvedConfig) => ({ config: cfg, log: silentLogger, db: { query: async () => [] }, registry, blobs: {} as never });

  test('the first working provider in configured order answers', async () => {
    const cfg = configWith({ TRAWL_SEARCH_PROVIDERS: 'brave,serper,google' });
    brave.mode = 'unauthorized';
    const r = await searchWithFallback(deps(cfg), q(), Date.now() + 5_000);
    expect(r.provider).toBe('serper');
    expect(brave.requests).toHaveLength(1);
    expect(google.requests).toHaveLength(0);
  });

  test('a provider without the source is skipped (google has no news)', async () => {
    const cfg = configWith({ TRAWL_SEARCH_PROVIDERS: 'google,serper' });
    const r = await searchWithFallback(deps(cfg), q({ source: 'news' }), Date.now() + 5_000);
    expect(r.provider).toBe('serper');
    expect(google.requests).toHaveLength(0);
  });

  test('all failing: 503 naming each provider and why', async () => {
    const cfg = configWith({ TRAWL_SEARCH_PROVIDERS: 'brave,serper,nosuch' });
    brave.mode = 'rate-limited';
    serper.mode = 'server-error';
    const e = await failure(searchWithFallback(deps(cfg), q(), Date.now() + 5_000));
    expect(e.status).toBe(503);
    expect(e.message).toContain('[brave] HTTP 429');
    expect(e.message).toContain('[serper] HTTP 500');
    expect(e.message).toContain('nosuch: no such provider');
  });

  test('nothing configured for a source: 503 saying what to set', async () => {
    const cfg = loadConfig({ TRAWL_SEARCH_PROVIDERS: 'brave,google' });
    const e = await failure(searchWithFallback(deps(cfg), q(), Date.now() + 5_000));
    expect(e.status).toBe(503);
    expect(e.message).toContain('No search provider is configured for web results');
  });

  test('the deadline passing gives 408 SCRAPE_TIMEOUT', async () => {
    const cfg = configWith({ TRAWL_SEARCH_PROVIDERS: 'brave,serper' });
    brave.mode = 'slow';
    serper.mode = 'slow';
    brave.slowMs = serper.slowMs = 2_000;
    const e = await failure(searchWithFallback(deps(cfg), q({ timeoutMs: 300 }), Date.now() + 300));
    expect(e.status).toBe(408);
    expect(e.code).toBe('SCRAPE_TIMEOUT');
  });
});

describe('search-provider contract', () => {
  test('every registered provider is named as registered, declares valid sources, and local is last and always configured', async () => {
    const names = registry.names('search-provider');
    expect(names.at(-1)).toBe('local');
    for (const name of names) {
      const p = await provider(name);
      expect(p.kind).toBe('search-provider');
      expect(p.name).toBe(name);
      expect(typeof p.configured(loadConfig({}))).toBe('boolean');
      for (const s of p.sources ?? []) expect(['web', 'news', 'images']).toContain(s);
    }
    expect((await provider('local')).configured(loadConfig({}))).toBe(true);
    expect(loadConfig({}).search.providers).toEqual(['local']);
    expect(loadConfig({ SEARXNG_URL: 'http://127.0.0.1:1', BRAVE_API_KEY: 'k' }).search.providers).toEqual(['searxng', 'brave', 'local']);
  });
});
