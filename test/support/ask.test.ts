/**
 * Issue 21 item 1: ask finds the caller team's failed request or job on a fixture site, names its
 * class, gives fixParameters that apply unchanged to the original request, and validates them by a
 * successful re-run. Isolation between teams; bad input is 4xx.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';

setDefaultTimeout(120_000);

let trawl: AccountsTrawl;
let site: FixtureSite;
let a: { key: string; team: string };
let b: { key: string; team: string };
const page = (title: string, links = '') => `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>Some text about ${title}.</p>${links}</body></html>`;

beforeAll(async () => {
  site = serveFixtures({
    '/': page('Home', '<a href="/private/a">a</a> <a href="/private/b">b</a> <a href="/docs">docs</a>'),
    '/docs': page('Docs'),
    '/private/a': page('Private A'),
    '/private/b': page('Private B'),
    '/app': '<html><head><title>App</title></head><body><div id="app"></div><script>setTimeout(() => { document.getElementById("app").innerHTML = "<h1>Rendered by script</h1><p>" + "This paragraph only exists once JavaScript ran. ".repeat(5) + "</p>"; }, 2500);</script></body></html>',
    '/robots.txt': { body: 'User-agent: *\nDisallow: /private\n', headers: { 'content-type': 'text/plain' } },
    '/slow': async () => {
      await Bun.sleep(2_500);
      return new Response(page('Slow'), { headers: { 'content-type': 'text/html' } });
    },
  });
  trawl = await startAccountsTrawl();
  a = await trawl.key({ credits: 1000 });
  b = await trawl.key({ credits: 1000 });
});
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

type Ask = { status: number; body: any };
const ask = (key: string, question: string, context?: Record<string, unknown>): Promise<Ask> =>
  trawl.post('/v2/support/ask', context ? { question, context } : { question }, trawl.auth(key));

async function crawlDone(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await trawl.post('/v2/crawl', body, trawl.auth(key));
  expect(res.status).toBe(200);
  for (let i = 0; i < 200; i++) {
    const s = await trawl.get(`/v2/crawl/${res.body.id}`, trawl.auth(key));
    if (['completed', 'failed', 'cancelled'].includes(s.body.status)) return res.body.id;
    await Bun.sleep(250);
  }
  throw new Error('crawl did not finish');
}

/** The class is named, the fix applies unchanged to the original request, and the re-run succeeded. */
async function expectFixed(r: Ask, cls: string, original: Record<string, unknown>, path: string, key: string) {
  expect(r.status).toBe(200);
  expect(r.body.answer).toContain(`Class: ${cls}.`);
  expect(r.body.validation.tested).toBe(true);
  expect(r.body.validation.result).toBe('success');
  const again = await trawl.post(path, { ...original, ...r.body.fixParameters }, trawl.auth(key));
  expect(again.status).toBe(200);
}

describe('POST /v2/support/ask', () => {
  test('timeout: a slow page; the fix raises the timeout and the re-run succeeds', async () => {
    const original = { url: site.url('/slow'), timeout: 1000 };
    const failed = await trawl.post('/v2/scrape', original, trawl.auth(a.key));
    expect(failed.status).toBe(408);
    const r = await ask(a.key, `Why did my scrape of ${original.url} fail?`);
    expect(r.body.confidence).toBe('high');
    // The failed response's x-request-id names it too.
    const byId = await ask(a.key, `What went wrong with request ${failed.headers.get('x-request-id')}?`);
    expect(byId.body.answer).toContain('Class: timeout.');
    expect(r.body.fixParameters.timeout).toBeGreaterThan(2_500);
    await expectFixed(r, 'timeout', original, '/v2/scrape', a.key);
  });

  test('key restriction: a key limited to markdown asked for html; the fix asks only allowed formats', async () => {
    const limited = await trawl.key({ team: a.team, formats: ['markdown'] });
    const original = { url: site.url('/docs'), formats: ['markdown', 'html'] };
    expect((await trawl.post('/v2/scrape', original, trawl.auth(limited.key))).status).toBe(403);
    const r = await ask(limited.key, `403 on ${original.url}, why?`);
    expect(r.body.fixParameters).toEqual({ formats: ['markdown'] });
    await expectFixed(r, 'key-restriction', original, '/v2/scrape', limited.key);
  });

  test('cache miss: lockdown with no cached copy (told in context: lockdown is never stored); the fix fetches live', async () => {
    const original = { url: site.url('/docs?never-cached'), lockdown: true };
    const failed = await trawl.post('/v2/scrape', original, trawl.auth(a.key));
    expect(failed.status).toBe(404);
    const r = await ask(a.key, 'Why does this lockdown scrape fail?', { endpoint: 'scrape', request: original, error: { ...failed.body, status: failed.status } });
    expect(r.body.fixParameters).toEqual({ lockdown: false });
    expect(r.body.confidence).toBe('medium');
    await expectFixed(r, 'cache-miss', original, '/v2/scrape', a.key);
  });

  test('cache miss: minAge with no cached copy is named, with no parameter fix and no re-run', async () => {
    const original = { url: site.url('/docs?never-cached-2'), minAge: 3_600_000 };
    expect((await trawl.post('/v2/scrape', original, trawl.auth(a.key))).status).toBe(404);
    const r = await ask(a.key, `What happened to ${original.url}`);
    expect(r.body.answer).toContain('Class: cache-miss.');
    expect(r.body.answer).toContain('without "minAge"');
    expect(r.body.fixParameters).toEqual({});
    expect(r.body.validation.tested).toBe(false);
  });

  test('js-needed: a page whose script fills it late scrapes empty; the fix waits in the browser', async () => {
    const original = { url: site.url('/app'), formats: ['markdown'] };
    const empty = await trawl.post('/v2/scrape', original, trawl.auth(a.key));
    expect(empty.status).toBe(200);
    expect(empty.body.data.markdown).not.toContain('Rendered by script');
    const r = await ask(a.key, `${original.url} comes back empty`);
    expect(r.body.fixParameters).toEqual({ waitFor: 5000 });
    expect(r.body.validation.evidence).toMatch(/content \d{3,} characters/);
    await expectFixed(r, 'js-needed', original, '/v2/scrape', a.key);
    const again = await trawl.post('/v2/scrape', { ...original, ...r.body.fixParameters }, trawl.auth(a.key));
    expect(again.body.data.markdown).toContain('Rendered by script');
  });

  test('robots-blocked: a crawl kept out of /private; the fix ignores robots.txt', async () => {
    const original = { url: site.url('/'), limit: 10 };
    const id = await crawlDone(a.key, original);
    const r = await ask(a.key, `My crawl ${id} misses pages`);
    expect(r.body.fixParameters).toEqual({ ignoreRobotsTxt: true });
    expect(r.body.validation.evidence).toContain('0 URL(s) blocked by robots.txt');
    await expectFixed(r, 'robots-blocked', original, '/v2/crawl', a.key);
  });

  test('include-paths: a crawl whose pattern matches nothing gives 0 pages; the fix drops the filter', async () => {
    const original = { url: site.url('/'), limit: 5, includePaths: ['^/nothing-here/'], ignoreRobotsTxt: true };
    const id = await crawlDone(a.key, original);
    const r = await ask(a.key, `crawl ${id} returned no pages`);
    expect(r.body.fixParameters).toEqual({ includePaths: [] });
    await expectFixed(r, 'include-paths', original, '/v2/crawl', a.key);
  });

  test('invalid pattern: a crawl refused with 400 for a pattern RE2 cannot compile; the fix drops it', async () => {
    const original = { url: site.url('/'), limit: 5, ignoreRobotsTxt: true, includePaths: ['^/docs(', '^/'] };
    const refused = await trawl.post('/v2/crawl', original, trawl.auth(a.key));
    expect(refused.status).toBe(400);
    const r = await ask(a.key, `why is my crawl of ${original.url} a 400?`);
    expect(r.body.fixParameters).toEqual({ includePaths: ['^/'] });
    await expectFixed(r, 'invalid-pattern', original, '/v2/crawl', a.key);
  });

  test('credits: a crawl over the balance is 402; the fix lowers limit to the balance', async () => {
    const poor = await trawl.key({ credits: 4 });
    const original = { url: site.url('/'), limit: 50 };
    expect((await trawl.post('/v2/crawl', original, trawl.auth(poor.key))).status).toBe(402);
    const r = await ask(poor.key, 'why was my crawl refused?');
    expect(r.body.fixParameters).toEqual({ limit: 4 });
    expect(r.body.answer).toContain('Class: credits.');
    expect(r.body.validation).toMatchObject({ tested: true, result: 'success' });
  });

  test("isolation: team B never sees team A's failures", async () => {
    const r = await ask(b.key, `Why did my scrape of ${site.url('/slow')} fail?`);
    expect(r.status).toBe(200);
    expect(r.body.confidence).toBe('low');
    expect(r.body.fixParameters).toEqual({});
    expect(JSON.stringify(r.body)).not.toContain(a.team);
    const jobOfA = (await crawlDone(a.key, { url: site.url('/docs'), limit: 1, includePaths: ['^/x'] }));
    expect((await ask(b.key, `what about ${jobOfA}?`)).status).toBe(404);
  });

  test('zero data retention: a failed ZDR scrape is never kept, so never read', async () => {
    const zdr = await trawl.key({ credits: 1000, zdr: true });
    const original = { url: site.url('/slow?zdr'), timeout: 1000, zeroDataRetention: true };
    expect((await trawl.post('/v2/scrape', original, trawl.auth(zdr.key))).status).toBe(408);
    const r = await ask(zdr.key, 'why did my last scrape fail?');
    expect(r.body.confidence).toBe('low');
    expect(r.body.answer).toContain('No failed request');
  });

  test('bad input: empty and 8001-character questions are 400; an unknown job id is 404', async () => {
    for (const question of ['', 'x'.repeat(8001)]) {
      const r = await ask(a.key, question);
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain('question');
    }
    expect((await ask(a.key, 'job 0190aaaa-0000-7000-8000-000000000000 failed')).status).toBe(404);
    expect((await trawl.post('/v2/support/ask', { question: 'hi' })).status).toBe(401);
  });
});
