/**
 * `location` defaults (interface.md scrape options `location`, search `location`; compat.md §3, §10;
 * issue 25 items 3 and 6): a country without languages sends its default language as Accept-Language
 * on the fetch path too (the fixture site sees it) and sets `metadata.timezone`; map sends it on the
 * start page; search providers get the location as each API takes it (brave and google against the
 * fakes in test/fakes, a recording SearXNG stand-in, and the local index through the HTTP API).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startSite, type Site } from '../scrape-options/site.ts';
import { startOn, type TestTrawl } from '../scrape-options/helpers.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { Registry } from '../../core/registry.ts';
import type { SearchContext, SearchProviderPlugin, SearchQuery } from '../../core/plugin.ts';
import { startFakeBrave, BRAVE_KEY } from '../fakes/brave.ts';
import { startFakeGoogle, GOOGLE_CX, GOOGLE_KEY } from '../fakes/google-cse.ts';
import type { Fake } from '../fakes/server.ts';
import { locationCountry, searchLocale } from '../../plugins/search/location.ts';

setDefaultTimeout(60_000);

let site: Site;
let trawl: TestTrawl;

beforeAll(async () => {
  site = startSite();
  trawl = await startOn();
});
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

const acceptLanguageOf = (path: string) => site.hits.filter((h) => h.path === path).map((h) => h.headers['accept-language'] ?? null);

describe('scrape and map', () => {
  test('fetch path: a country alone sends its language; metadata.timezone is its time zone', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/echo?loc=de'), location: { country: 'de' }, maxAge: 0 });
    expect(res.status).toBe(200);
    expect(acceptLanguageOf('/echo?loc=de')).toEqual(['de-DE']);
    expect(res.body.data.metadata.timezone).toBe('Europe/Berlin');
    // Languages still win over the country's; no location, no time zone.
    await trawl.post('/v2/scrape', { url: site.url('/echo?loc=jp'), location: { country: 'JP', languages: ['en-GB', 'en'] }, maxAge: 0 });
    expect(acceptLanguageOf('/echo?loc=jp')[0]).toMatch(/^en-GB,en;q=0\.9/);
    const plain = await trawl.post('/v2/scrape', { url: site.url('/echo?loc=none'), maxAge: 0 });
    expect(plain.body.data.metadata.timezone).toBeUndefined();
  });

  test('map: the start page is fetched with the location language; a bad country is a 400', async () => {
    const res = await trawl.post('/v2/map', { url: site.url('/echo?map=fr'), sitemap: 'skip', location: { country: 'FR' } });
    expect(res.status).toBe(200);
    expect(acceptLanguageOf('/echo?map=fr')).toEqual(['fr-FR']);
    const bad = await trawl.post('/v2/map', { url: site.url('/echo'), location: { country: 'France' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('location.country');
  });
});

describe('search providers', () => {
  let brave: Fake;
  let google: Fake;
  let searx: FixtureSite;
  const searxQueries: URLSearchParams[] = [];
  const registry = new Registry();

  beforeAll(() => {
    brave = startFakeBrave();
    google = startFakeGoogle();
    searx = serveFixtures({
      '/search': (_req, url) => {
        searxQueries.push(url.searchParams);
        return Response.json({ results: [] });
      },
    });
  });
  afterAll(() => {
    brave?.stop();
    google?.stop();
    searx?.stop();
  });

  const config = () =>
    loadConfig({
      TRAWL_LOG_LEVEL: 'silent',
      BRAVE_API_KEY: BRAVE_KEY,
      BRAVE_API_URL: `${brave.origin}/res/v1`,
      GOOGLE_CSE_KEY: GOOGLE_KEY,
      GOOGLE_CSE_ID: GOOGLE_CX,
      GOOGLE_CSE_URL: `${google.origin}/customsearch/v1`,
      SEARXNG_URL: searx.origin,
    });
  const ctx = (): SearchContext => ({ config: config(), log: silentLogger, signal: AbortSignal.timeout(5000), deadline: Date.now() + 5000, blobs: {} as never, db: { query: async () => [] } });
  const q = (over: Partial<SearchQuery> = {}): SearchQuery => ({ query: 'tide', source: 'web', limit: 5, timeoutMs: 5000, country: 'US', ...over });
  const provider = (name: string) => registry.get('search-provider', name) as Promise<SearchProviderPlugin>;

  test('place names resolve to a country and its language', () => {
    expect(locationCountry('Berlin,Berlin,Germany')).toBe('DE');
    expect(locationCountry('germany')).toBe('DE');
    expect(locationCountry('United States')).toBe('US');
    expect(locationCountry('fr')).toBe('FR');
    expect(locationCountry('Atlantis')).toBeUndefined();
    expect(searchLocale({ location: 'Japan', country: 'US' })).toEqual({ country: 'JP', lang: 'ja-JP' });
    expect(searchLocale({ location: 'Japan', country: 'US', lang: 'en' })).toEqual({ country: 'JP', lang: 'en' });
    expect(searchLocale({ location: 'Atlantis', country: 'US' })).toEqual({ country: 'US', lang: undefined });
  });

  test('brave: country, search_lang and the X-Loc headers', async () => {
    await (await provider('brave')).search(q({ location: 'Munich,Bavaria,Germany' }), ctx());
    const req = brave.requests.at(-1)!;
    expect(req.query.get('country')).toBe('DE');
    expect(req.query.get('search_lang')).toBe('de');
    expect(req.headers.get('x-loc-country')).toBe('DE');
    expect(req.headers.get('x-loc-city')).toBe('Munich');
  });

  test('google: gl, hl and lr from the location', async () => {
    await (await provider('google')).search(q({ location: 'France' }), ctx());
    const req = google.requests.at(-1)!;
    expect(req.query.get('gl')).toBe('fr');
    expect(req.query.get('hl')).toBe('fr-FR');
    expect(req.query.get('lr')).toBe('lang_fr');
  });

  test('searxng: language from the location', async () => {
    await (await provider('searxng')).search(q({ location: 'Rome,Lazio,Italy' }), ctx());
    expect(searxQueries.at(-1)!.get('language')).toBe('it-IT');
  });
});

describe('local index', () => {
  let pages: FixtureSite;
  beforeAll(() => {
    const page = (lang: string, text: string) => `<html lang="${lang}"><head><title>Gezeiten ${lang}</title></head><body><main><h1>Quokkatide ${lang}</h1><p>${text}</p></main></body></html>`;
    pages = serveFixtures({
      '/de': page('de', 'Quokkatide: die Gezeiten an der Küste steigen und fallen zweimal am Tag.'),
      '/en': page('en', 'Quokkatide: the tides along the coast rise and fall twice a day.'),
    });
  });
  afterAll(() => pages?.stop());

  test('a location naming a country keeps pages in its language', async () => {
    for (const p of ['/de', '/en']) expect((await trawl.post('/v2/scrape', { url: pages.url(p) })).status).toBe(200);
    const all = await trawl.post('/v2/search', { query: 'quokkatide' });
    expect(all.body.data.web.map((r: any) => r.url).sort()).toEqual([pages.url('/de'), pages.url('/en')]);
    const german = await trawl.post('/v2/search', { query: 'quokkatide', location: 'Germany' });
    expect(german.body.data.web.map((r: any) => r.url)).toEqual([pages.url('/de')]);
  });
});
