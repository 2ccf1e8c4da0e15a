/**
 * Key restrictions through every route (interface.md Authentication 4, Errors 403; compat.md §18.3):
 * a format-restricted key cannot get another format by scrape, batch scrape, crawl or search
 * `scrapeOptions`, v1, or content-returning actions; an endpoint-restricted key cannot reach another
 * group by any route (status, errors, cancel and WebSocket share their job's group), while account
 * endpoints stay reachable.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from './helpers.ts';

setDefaultTimeout(60_000);

const PAGE = '<html><head><title>Dunes</title></head><body><main><h1>Dunes</h1><p>Sand moves with the wind.</p><a href="/page2">next</a></main></body></html>';

let site: FixtureSite;
let trawl: AccountsTrawl;
let mdOnly: string; // formats: markdown
let htmlOnly: string; // formats: html (default markdown not allowed)
let mdShot: string; // formats: markdown, screenshot
let searchOnly: string; // endpoints: search
let scrapeOnly: string; // endpoints: scrape
let open: string; // no restriction, same team as scrapeOnly

beforeAll(async () => {
  site = serveFixtures({ '/page': PAGE, '/page2': PAGE });
  trawl = await startAccountsTrawl();
  mdOnly = (await trawl.key({ formats: ['markdown'] })).key;
  htmlOnly = (await trawl.key({ formats: ['html'] })).key;
  mdShot = (await trawl.key({ formats: ['markdown', 'screenshot'] })).key;
  searchOnly = (await trawl.key({ endpoints: ['search'] })).key;
  const s = await trawl.key({ endpoints: ['scrape'] });
  scrapeOnly = s.key;
  open = (await trawl.key({ team: s.team })).key;
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

function expectForbidden(res: { status: number; body: any }, ...mentions: string[]) {
  expect(res.status).toBe(403);
  expect(res.body.success).toBe(false);
  for (const m of mentions) expect(res.body.error).toContain(m);
}

describe('formats', () => {
  test('scrape: another format is refused, naming the allowed and the rejected formats', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['markdown', 'html', 'links'] }, trawl.auth(mdOnly));
    expectForbidden(res, 'html', 'links', 'Formats allowed for this key: markdown');
    expect(res.body.error).not.toMatch(/request the formats? markdown/);
    const obj = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: [{ type: 'html' }] }, trawl.auth(mdOnly));
    expectForbidden(obj, 'html');
  });

  test('scrape: allowed formats work, including the default markdown', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(mdOnly));
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('Sand moves');
  });

  test('scrape: the default markdown counts when markdown is not allowed', async () => {
    expectForbidden(await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(htmlOnly)), 'markdown', 'html');
    expect((await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['html'] }, trawl.auth(htmlOnly))).status).toBe(200);
  });

  test('actions: scrape, executeJavascript and pdf always refused; screenshot only with screenshot', async () => {
    for (const action of [{ type: 'scrape' }, { type: 'executeJavascript', script: 'return 1' }, { type: 'pdf' }]) {
      expectForbidden(await trawl.post('/v2/scrape', { url: site.url('/page'), actions: [action] }, trawl.auth(mdShot)), action.type);
    }
    expectForbidden(await trawl.post('/v2/scrape', { url: site.url('/page'), actions: [{ type: 'screenshot' }] }, trawl.auth(mdOnly)), 'screenshot');
    // Allowed actions pass admission (what happens next depends on the browser, never 403).
    const shot = await trawl.post('/v2/scrape', { url: site.url('/page'), actions: [{ type: 'screenshot' }] }, trawl.auth(mdShot));
    expect(shot.status).not.toBe(403);
    const wait = await trawl.post('/v2/scrape', { url: site.url('/page'), actions: [{ type: 'wait', milliseconds: 10 }, { type: 'click', selector: 'a' }] }, trawl.auth(mdOnly));
    expect(wait.status).not.toBe(403);
    // An unrestricted key may use content actions (never refused by restrictions).
    const free = await trawl.post('/v2/scrape', { url: site.url('/page'), actions: [{ type: 'scrape' }] }, trawl.auth(open));
    expect(free.status).not.toBe(403);
  });

  test('v1 scrape', async () => {
    expectForbidden(await trawl.post('/v1/scrape', { url: site.url('/page'), formats: ['html'] }, trawl.auth(mdOnly)), 'html');
    const shot = await trawl.post('/v1/scrape', { url: site.url('/page'), formats: ['screenshot@fullPage'] }, trawl.auth(mdOnly));
    if (trawl.running.services.formats.has('screenshot')) expectForbidden(shot, 'screenshot');
    else expect(shot.status).toBe(400); // no screenshot format on this instance: refused before admission
    expectForbidden(await trawl.post('/v1/scrape', { url: site.url('/page'), actions: [{ type: 'executeJavascript', script: '1' }] }, trawl.auth(mdShot)), 'executeJavascript');
    const ok = await trawl.post('/v1/scrape', { url: site.url('/page'), formats: ['markdown'] }, trawl.auth(mdOnly));
    expect(ok.status).toBe(200);
    expect(ok.body.data.markdown).toContain('Sand moves');
  });

  test('crawl scrapeOptions (v2 and v1)', async () => {
    expectForbidden(await trawl.post('/v2/crawl', { url: site.url('/page'), limit: 2, scrapeOptions: { formats: ['html'] } }, trawl.auth(mdOnly)), 'html');
    expectForbidden(await trawl.post('/v2/crawl', { url: site.url('/page'), limit: 2 }, trawl.auth(htmlOnly)), 'markdown');
    expectForbidden(await trawl.post('/v2/crawl', { url: site.url('/page'), limit: 2, scrapeOptions: { actions: [{ type: 'pdf' }] } }, trawl.auth(mdShot)), 'pdf');
    expectForbidden(await trawl.post('/v1/crawl', { url: site.url('/page'), limit: 2, scrapeOptions: { formats: ['rawHtml'] } }, trawl.auth(mdOnly)), 'rawHtml');
    const ok = await trawl.post('/v2/crawl', { url: site.url('/page'), limit: 2, scrapeOptions: { formats: ['markdown'] } }, trawl.auth(mdOnly));
    expect(ok.status).toBe(200);
  });

  test('batch scrape (v2 and v1)', async () => {
    expectForbidden(await trawl.post('/v2/batch/scrape', { urls: [site.url('/page')], formats: ['links'] }, trawl.auth(mdOnly)), 'links');
    expectForbidden(await trawl.post('/v2/batch/scrape', { urls: [site.url('/page')], actions: [{ type: 'scrape' }] }, trawl.auth(mdShot)), 'scrape');
    expectForbidden(await trawl.post('/v1/batch/scrape', { urls: [site.url('/page')], formats: ['html'] }, trawl.auth(mdOnly)), 'html');
    expect((await trawl.post('/v2/batch/scrape', { urls: [site.url('/page')] }, trawl.auth(mdOnly))).status).toBe(200);
  });

  test('search scrapeOptions (v2 and v1)', async () => {
    expectForbidden(await trawl.post('/v2/search', { query: 'dunes', scrapeOptions: { formats: ['html'] } }, trawl.auth(mdOnly)), 'html');
    expectForbidden(await trawl.post('/v2/search', { query: 'dunes', scrapeOptions: {} }, trawl.auth(htmlOnly)), 'markdown');
    expectForbidden(await trawl.post('/v1/search', { query: 'dunes', scrapeOptions: { formats: ['html'] } }, trawl.auth(mdOnly)), 'html');
    expectForbidden(await trawl.post('/v2/search', { query: 'dunes', scrapeOptions: { actions: [{ type: 'executeJavascript', script: '1' }] } }, trawl.auth(mdShot)), 'executeJavascript');
    // Without scrapeOptions nothing is scraped, so no format is requested.
    expect((await trawl.post('/v2/search', { query: 'dunes' }, trawl.auth(htmlOnly))).status).not.toBe(403);
  });
});

describe('endpoint groups', () => {
  test('a group outside the allowlist is refused, naming the allowed groups', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(searchOnly));
    expectForbidden(res, 'scrape', 'Endpoint groups allowed for this key: search');
    expectForbidden(await trawl.post('/v1/scrape', { url: site.url('/page') }, trawl.auth(searchOnly)), 'scrape');
    expect((await trawl.post('/v2/search', { query: 'dunes' }, trawl.auth(searchOnly))).status).not.toBe(403);
    // The research paper endpoints are their own group (problem-details errors, compat.md §11.2).
    const research = await trawl.get('/v2/search/research/papers?query=dunes', trawl.auth(searchOnly));
    expect(research.status).toBe(403);
    expect(research.body.detail).toContain('research');
  });

  test('scrape status reads share the scrape group', async () => {
    const made = await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(open));
    expect(made.status).toBe(200);
    const id = made.body.data.metadata.scrapeId;
    expect((await trawl.get(`/v2/scrape/${id}`, trawl.auth(scrapeOnly))).status).toBe(200);
    const other = await trawl.key({ team: (await trawl.running.services.db.query<{ team_id: string }>("select team_id from api_keys where key_prefix = $1", [scrapeOnly.slice(0, 8)]))[0].team_id, endpoints: ['crawl'] });
    expectForbidden(await trawl.get(`/v2/scrape/${id}`, trawl.auth(other.key)), 'scrape');
  });

  test('account endpoints are always reachable', async () => {
    for (const path of ['/v2/team/credit-usage', '/v2/team/token-usage', '/v2/team/credit-usage/historical', '/v2/team/queue-status', '/v2/concurrency-check']) {
      const res = await trawl.get(path, trawl.auth(searchOnly));
      expect(res.status).toBe(200);
    }
  });

  test('crawl: start, status, errors, cancel and the crawl list need the crawl group', async () => {
    const started = await trawl.post('/v2/crawl', { url: site.url('/page'), limit: 2 }, trawl.auth(open));
    expect(started.status).toBe(200);
    const id = started.body.id;
    expectForbidden(await trawl.post('/v2/crawl', { url: site.url('/page'), limit: 2 }, trawl.auth(scrapeOnly)), 'crawl');
    expectForbidden(await trawl.get(`/v2/crawl/${id}`, trawl.auth(scrapeOnly)), 'crawl');
    expectForbidden(await trawl.get(`/v2/crawl/${id}/errors`, trawl.auth(scrapeOnly)), 'crawl');
    expectForbidden(await trawl.get('/v2/crawl/active', trawl.auth(scrapeOnly)), 'crawl');
    const del = await fetch(`${trawl.base}/v2/crawl/${id}`, { method: 'DELETE', headers: trawl.auth(scrapeOnly) });
    expect(del.status).toBe(403);
    expectForbidden(await trawl.get(`/v1/crawl/${id}`, trawl.auth(scrapeOnly)), 'crawl');
  });

  test('crawl WebSocket refuses a key without the crawl group', async () => {
    const started = await trawl.post('/v2/crawl', { url: site.url('/page'), limit: 1 }, trawl.auth(open));
    expect(started.status).toBe(200);
    const ws = new WebSocket(`${trawl.base.replace('http', 'ws')}/v2/crawl/${started.body.id}`, scrapeOnly);
    const frames: string[] = [];
    ws.onmessage = (e) => frames.push(String(e.data));
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => (ws.onclose = (e) => resolve({ code: e.code, reason: e.reason })));
    expect(frames).toEqual([]);
    expect(closed.code).not.toBe(1000);
    expect(closed.reason).toContain('error');
  });

  test('batch scrape and map need their own groups', async () => {
    expectForbidden(await trawl.post('/v2/batch/scrape', { urls: [site.url('/page')] }, trawl.auth(scrapeOnly)), 'batch-scrape');
    expectForbidden(await trawl.post('/v2/map', { url: site.url('/page') }, trawl.auth(scrapeOnly)), 'map');
    expectForbidden(await trawl.post('/v1/map', { url: site.url('/page') }, trawl.auth(scrapeOnly)), 'map');
  });

  test('extract and agent need their own groups: allowing scrape alone does not grant them', async () => {
    expectForbidden(await trawl.post('/v2/extract', { urls: [site.url('/page')], prompt: 'the title' }, trawl.auth(scrapeOnly)), 'extract');
    expectForbidden(await trawl.post('/v1/extract', { urls: [site.url('/page')], prompt: 'the title' }, trawl.auth(scrapeOnly)), 'extract');
    expectForbidden(await trawl.post('/v2/agent', { prompt: 'find the title', urls: [site.url('/page')] }, trawl.auth(scrapeOnly)), 'agent');
  });

  test('search needs the search group, also for v1', async () => {
    expectForbidden(await trawl.post('/v2/search', { query: 'dunes' }, trawl.auth(scrapeOnly)), 'search');
    expectForbidden(await trawl.post('/v1/search', { query: 'dunes' }, trawl.auth(scrapeOnly)), 'search');
  });
});
