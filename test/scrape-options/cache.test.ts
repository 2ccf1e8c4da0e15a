/**
 * The scrape cache through the HTTP API (interface.md maxAge, minAge, lockdown, storeInCache;
 * compat.md §3, §4): hits get a new scrapeId stored for GET, keys cover the options that change the
 * output, sensitive options bypass the cache, cache-only modes answer 404 without contacting the site,
 * and zero data retention scrapes store nothing (GET answers 400).
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { siteAndTrawl } from './helpers.ts';


setDefaultTimeout(60_000);
const env = siteAndTrawl();

const scrape = (body: Record<string, unknown>) => env.trawl.post('/v2/scrape', body);
const visit = (md: string) => Number(/visit number (\d+)/.exec(md)?.[1]);

describe('maxAge and cache hits', () => {
  test('a second scrape is a hit: same content, site not contacted, new scrapeId readable by GET byte for byte', async () => {
    const url = env.site.url('/counter?a=1&b=2');
    const first = await scrape({ url });
    expect(first.status).toBe(200);
    expect(first.body.data.metadata.cacheState).toBe('miss');
    expect(first.body.data.metadata.cachedAt).toBeUndefined();
    const before = env.site.count('/counter?a=1&b=2');
    // Query order and a fragment do not change the cache key.
    const second = await scrape({ url: env.site.url('/counter?b=2&a=1#top') });
    expect(second.status).toBe(200);
    expect(env.site.count('/counter?a=1&b=2') + env.site.count('/counter?b=2&a=1')).toBe(before);
    const m = second.body.data.metadata;
    expect(m.cacheState).toBe('hit');
    expect(Date.parse(m.cachedAt)).toBeLessThanOrEqual(Date.now());
    expect(Date.now() - Date.parse(m.cachedAt)).toBeLessThan(60_000);
    expect(m.scrapeId).not.toBe(first.body.data.metadata.scrapeId);
    expect(m.sourceURL).toBe(env.site.url('/counter?b=2&a=1#top'));
    expect(visit(second.body.data.markdown)).toBe(visit(first.body.data.markdown));
    expect(m.creditsUsed).toBe(1);
    const stored = await env.trawl.get(`/v2/scrape/${m.scrapeId}`);
    expect(stored.status).toBe(200);
    expect(stored.text).toBe(second.text);
  });

  test('concurrent hits (stored together by group commit) each get their own document, readable byte for byte, and each is charged', async () => {
    const url = env.site.url('/counter?together');
    expect((await scrape({ url })).status).toBe(200);
    const credits = async () => (await env.trawl.get('/v2/team/credit-usage')).body.data.remainingCredits as number;
    const before = await credits();
    const hits = await Promise.all(Array.from({ length: 12 }, () => scrape({ url })));
    const ids = new Set(hits.map((h) => h.body.data.metadata.scrapeId));
    expect(hits.map((h) => h.body.data.metadata.cacheState)).toEqual(Array(12).fill('hit'));
    expect(ids.size).toBe(12);
    for (const h of hits) expect((await env.trawl.get(`/v2/scrape/${h.body.data.metadata.scrapeId}`)).text).toBe(h.text);
    expect(before - (await credits())).toBe(12);
  });

  test('maxAge 0 always scrapes fresh; a fresh scrape refreshes the cache', async () => {
    const url = env.site.url('/counter?fresh');
    const a = visit((await scrape({ url })).body.data.markdown);
    const b = await scrape({ url, maxAge: 0 });
    expect(b.body.data.metadata.cacheState).toBe('miss');
    expect(visit(b.body.data.markdown)).toBeGreaterThan(a);
    const c = await scrape({ url });
    expect(c.body.data.metadata.cacheState).toBe('hit');
    expect(visit(c.body.data.markdown)).toBe(visit(b.body.data.markdown));
  });

  test('a short maxAge misses an older copy', async () => {
    const url = env.site.url('/counter?short');
    await scrape({ url });
    await Bun.sleep(1200);
    const res = await scrape({ url, maxAge: 1000 });
    expect(res.body.data.metadata.cacheState).toBe('miss');
  });

  test('options that change the output are part of the key', async () => {
    const url = env.site.url('/counter?key');
    await scrape({ url });
    for (const variant of [
      { onlyMainContent: false },
      { formats: ['markdown', 'html'] },
      { excludeTags: ['h1'] },
      { location: { country: 'DE' } },
      { removeBase64Images: false },
      { parsers: [] },
    ]) {
      const res = await scrape({ url, ...variant });
      expect(res.status).toBe(200);
      expect([JSON.stringify(variant), res.body.data.metadata.cacheState]).toEqual([JSON.stringify(variant), 'miss']);
    }
    // Options that do not change the output share the entry.
    const same = await scrape({ url, timeout: 20_000, proxy: 'basic', skipTlsVerification: false });
    expect(same.body.data.metadata.cacheState).toBe('hit');
  });

  test('storeInCache false stores nothing; headers neither read nor write the cache', async () => {
    const url = env.site.url('/counter?nostore');
    await scrape({ url, storeInCache: false });
    expect((await scrape({ url })).body.data.metadata.cacheState).toBe('miss');
    const before = env.site.count('/counter?nostore');
    const withHeaders = await scrape({ url, headers: { 'X-Fixture': '1' } });
    expect(withHeaders.body.data.metadata.cacheState).toBe('miss');
    expect(env.site.count('/counter?nostore')).toBe(before + 1);
    const hdrUrl = env.site.url('/counter?headers-only');
    await scrape({ url: hdrUrl, headers: { 'X-Fixture': '1' } });
    expect((await scrape({ url: hdrUrl })).body.data.metadata.cacheState).toBe('miss');
  });

  test('a screenshot document is cached with its blob URL, which still serves the image', async () => {
    const url = env.site.url('/article?shot');
    const first = await scrape({ url, formats: ['screenshot'] });
    const second = await scrape({ url, formats: ['screenshot'] });
    expect(second.body.data.metadata.cacheState).toBe('hit');
    expect(second.body.data.screenshot).toBe(first.body.data.screenshot);
    expect((await fetch(second.body.data.screenshot)).status).toBe(200);
  });
});

describe('cache-only modes', () => {
  test('minAge: cached data at least that old, else 404 SCRAPE_NO_CACHED_DATA, never the site', async () => {
    const url = env.site.url('/counter?minage');
    const none = await scrape({ url, minAge: 1 });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ success: false, code: 'SCRAPE_NO_CACHED_DATA' });
    expect(env.site.count('/counter?minage')).toBe(0);
    const fresh = await scrape({ url });
    await Bun.sleep(20);
    const hit = await scrape({ url, minAge: 1 });
    expect(hit.status).toBe(200);
    expect(hit.body.data.metadata.cacheState).toBe('hit');
    expect(visit(hit.body.data.markdown)).toBe(visit(fresh.body.data.markdown));
    const tooYoung = await scrape({ url, minAge: 3_600_000 });
    expect(tooYoung.status).toBe(404);
    expect(env.site.count('/counter?minage')).toBe(1);
  });

  test('lockdown: a hit costs 5 credits; a miss is 404 SCRAPE_LOCKDOWN_CACHE_MISS without the URL, site untouched', async () => {
    const url = env.site.url('/counter?lockdown');
    const miss = await scrape({ url, lockdown: true });
    expect(miss.status).toBe(404);
    expect(miss.body.code).toBe('SCRAPE_LOCKDOWN_CACHE_MISS');
    expect(miss.text).not.toContain('lockdown'.concat('?'));
    expect(miss.text).not.toContain(String(env.site.port));
    expect(env.site.count('/counter?lockdown')).toBe(0);
    await scrape({ url });
    const hit = await scrape({ url, lockdown: true });
    expect(hit.status).toBe(200);
    expect(hit.body.data.metadata.cacheState).toBe('hit');
    expect(hit.body.data.metadata.creditsUsed).toBe(5);
    expect(env.site.count('/counter?lockdown')).toBe(1);
  });

  test('lockdown on a private or unresolvable host never resolves it: 404, not a DNS error', async () => {
    const res = await scrape({ url: 'http://never-scraped.invalid/page', lockdown: true });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('SCRAPE_LOCKDOWN_CACHE_MISS');
  });
});

describe('GET /v2/scrape/{id}', () => {
  test('zero data retention: nothing stored, not cached, GET answers 400', async () => {
    const url = env.site.url('/counter?zdr');
    const res = await scrape({ url, zeroDataRetention: true });
    expect(res.status).toBe(200);
    const id = res.body.data.metadata.scrapeId;
    const again = await env.trawl.get(`/v2/scrape/${id}`);
    expect(again.status).toBe(400);
    expect(again.body.error).toContain('zero data retention');
    expect((await scrape({ url })).body.data.metadata.cacheState).toBe('miss');
    expect((await env.trawl.get('/v2/scrape/0190f5a0-0000-7000-8000-00000000abcd')).status).toBe(404);
  });
});
