/**
 * Issue 21 item 1, the 429 class end to end: a key over its per-minute scrape limit
 * (TRAWL_KEY_RATE_LIMIT_PER_MINUTE=3) gets 429 with Retry-After. Asked at once, the wait is longer
 * than the validation budget: `not tested`, naming when to ask again. Asked again when less than the
 * budget is left, the validation waits the rest and re-runs the request unchanged, as the same key:
 * success, and the script's re-run (fixParameters `{}`) succeeds too. About a minute: the wait is
 * the window of the real limiter.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';

let trawl: AccountsTrawl;
let site: FixtureSite;

beforeAll(async () => {
  site = serveFixtures({ '/p': `<html><body><h1>Page</h1><p>${'Plain content of a page that answers every time. '.repeat(4)}</p></body></html>` });
  trawl = await startAccountsTrawl({ TRAWL_KEY_RATE_LIMIT_PER_MINUTE: '3' });
}, 120_000);
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

test('rate-limit: validated after the Retry-After wait, as the same key', async () => {
  const k = await trawl.key();
  const original = { url: site.url('/p') };
  let last: Awaited<ReturnType<typeof trawl.post>> | undefined;
  for (let i = 0; i < 4; i++) last = await trawl.post('/v2/scrape', original, trawl.auth(k.key));
  expect(last!.status).toBe(429);
  const retryAfter = Number(last!.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  const limitedAt = Date.now();

  const now = await trawl.post('/v2/support/ask', { question: 'why 429?' }, trawl.auth(k.key));
  expect(now.body.answer).toContain('Class: rate-limit.');
  expect(now.body.fixParameters).toEqual({});
  if (retryAfter > 44) {
    expect(now.body.validation).toMatchObject({ tested: false, result: 'not tested' });
    expect(now.body.validation.evidence).toMatch(/ask again in \d+ s/);
  }

  // Ask again when about 30 s of the wait are left: the validation waits them, then re-runs.
  await Bun.sleep(Math.max(0, limitedAt + retryAfter * 1000 - 30_000 - Date.now()));
  const later = await trawl.post('/v2/support/ask', { question: 'why 429?' }, trawl.auth(k.key));
  expect(later.status).toBe(200);
  expect(later.body.answer).toContain('Class: rate-limit.');
  expect(later.body.validation).toMatchObject({ tested: true, result: 'success' });
  expect(later.body.validation.evidence).toMatch(/^after waiting \d+ s, POST \/v2\/scrape with the original request unchanged/);
  const again = await trawl.post('/v2/scrape', { ...original, ...later.body.fixParameters }, trawl.auth(k.key));
  expect(again.status).toBe(200);
}, 150_000);
