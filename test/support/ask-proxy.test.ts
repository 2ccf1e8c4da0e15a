/**
 * Issue 21, anti-bot class: a fixture site refuses (403) visitors that do not come through a proxy
 * (tinyproxy's Via header, as test/scrape-options/proxy.test.ts); a scrape with `proxy: "basic"` (no
 * basic proxy: direct) is turned away; ask names the class, the fix `proxy: "enhanced"` goes through
 * tinyproxy and the re-run gets the page. UNSAFE_TARGET: with only 10.0.0.5 allowed, a loopback target
 * is refused and ask points at TRAWL_ALLOW_PRIVATE_TARGETS; its re-run is refused again (needs-operator), and succeeds once Trawl restarts with the address allowed. 429: a key over its
 * per-minute limit; another key of the team asks and gets the Retry-After wait.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTinyproxy, type RunningProxy } from '../scrape-options/proxies.ts';
import { startTrawl } from '../helpers/trawl.ts';

setDefaultTimeout(120_000);

let site: FixtureSite;
let proxy: RunningProxy;
let trawl: AccountsTrawl;
let strict: AccountsTrawl;

beforeAll(async () => {
  site = serveFixtures({
    '/guarded': (req) =>
      req.headers.get('via')
        ? new Response('<html><body><h1>Guarded page</h1><p>Welcome, visitor through a proxy. Here is the content you asked for.</p></body></html>', { headers: { 'content-type': 'text/html' } })
        : new Response('<html><body><h1>Access denied</h1></body></html>', { status: 403, headers: { 'content-type': 'text/html' } }),
  });
  proxy = await startTinyproxy();
  trawl = await startAccountsTrawl({ TRAWL_PROXY_ENHANCED: proxy.url });
  strict = await startAccountsTrawl({ TRAWL_ALLOW_PRIVATE_TARGETS: '10.0.0.5', TRAWL_KEY_RATE_LIMIT_PER_MINUTE: '3' });
}, 120_000);
afterAll(async () => {
  await trawl?.stop();
  await strict?.stop();
  await proxy?.stop();
  site?.stop();
});

describe('POST /v2/support/ask with proxies and the SSRF guard', () => {
  test('anti-bot: a 403 to a direct visitor; the fix proxy "enhanced" gets the page', async () => {
    const { key } = await trawl.key();
    const original = { url: site.url('/guarded'), proxy: 'basic' };
    const blocked = await trawl.post('/v2/scrape', original, trawl.auth(key));
    expect(blocked.status).toBe(200);
    expect(blocked.body.data.metadata.statusCode).toBe(403);
    const r = await trawl.post('/v2/support/ask', { question: `why am I denied on ${original.url}?` }, trawl.auth(key));
    expect(r.body.answer).toContain('Class: anti-bot.');
    expect(r.body.fixParameters).toEqual({ proxy: 'enhanced' });
    expect(r.body.validation).toMatchObject({ tested: true, result: 'success' });
    const again = await trawl.post('/v2/scrape', { ...original, ...r.body.fixParameters }, trawl.auth(key));
    expect(again.body.data.metadata.statusCode).toBe(200);
    expect(again.body.data.markdown).toContain('Guarded page');
  });

  test('unsafe-target: a refused loopback target names TRAWL_ALLOW_PRIVATE_TARGETS; no parameter fix, needs-operator', async () => {
    const { key } = await strict.key();
    const refused = await strict.post('/v2/scrape', { url: site.url('/guarded') }, strict.auth(key));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('UNSAFE_TARGET');
    const r = await strict.post('/v2/support/ask', { question: 'my scrape was refused' }, strict.auth(key));
    expect(r.body.answer).toContain('Class: unsafe-target.');
    expect(r.body.answer).toContain('TRAWL_ALLOW_PRIVATE_TARGETS');
    expect(r.body.confidence).toBe('high');
    expect(r.body.fixParameters).toEqual({});
    // Re-run unchanged: refused again until the operator allows the address and restarts.
    expect(r.body.validation).toMatchObject({ tested: true, result: 'needs-operator' });
    expect(r.body.validation.evidence).toContain('403 UNSAFE_TARGET');
    expect(r.body.validation.evidence).toContain('TRAWL_ALLOW_PRIVATE_TARGETS');

    // The operator's change: the same database, restarted with the address allowed; asking again re-tests it.
    const allowed = await startTrawl({ DATABASE_URL: strict.running.services.config.databaseUrl!, TRAWL_ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      const after = await allowed.post('/v2/support/ask', { question: 'my scrape was refused' }, strict.auth(key));
      expect(after.body.answer).toContain('Class: unsafe-target.');
      expect(after.body.validation).toMatchObject({ tested: true, result: 'success' });
      expect((await allowed.post('/v2/scrape', { url: site.url('/guarded'), ...after.body.fixParameters }, strict.auth(key))).status).toBe(200);
    } finally {
      await allowed.stop();
    }
  });

  test('rate-limit: a key over its limit gets 429; ask names the wait (its validation: ask-rate-limit.test.ts)', async () => {
    const first = await strict.key();
    const second = await strict.key({ team: first.team });
    let last = 0;
    for (let i = 0; i < 4; i++) last = (await strict.post('/v2/scrape', { url: 'http://10.0.0.5:9/x' }, strict.auth(first.key))).status;
    expect(last).toBe(429);
    const r = await strict.post('/v2/support/ask', { question: 'why 429?' }, strict.auth(second.key));
    expect(r.body.answer).toContain('Class: rate-limit.');
    expect(r.body.answer).toMatch(/Wait \d+ s \(Retry-After\)/);
    expect(r.body.fixParameters).toEqual({});
    expect(r.body.validation.tested).toBe(false);
  });
});
