/**
 * Monitor endpoints (issue 20 scope 2; compat.md §15), in-process on Postgres with API keys: the
 * firecrawl@4.42.0 SDK's monitor methods unchanged (create, list, get, update, run, list checks, get a
 * check with auto-paging over `next`, delete), a scrape target over a fixture page the test changes
 * (new → same → changed with its git diff → removed), a crawl target whose page is no longer linked
 * (removed), the `monitor.page` / `monitor.check.completed` webhooks signed like crawl webhooks, and
 * bad input answered with clear 4xx (never 500).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { verifySignature } from '../../core/webhooks/sign.ts';
import { teamWebhookSecret } from '../../core/webhooks/team-secret.ts';

setDefaultTimeout(120_000);

let site: FixtureSite;
let trawl: AccountsTrawl;
let fc: Firecrawl;
let key: { key: string; team: string };
let other: { key: string; team: string };
let receiver: ReturnType<typeof Bun.serve>;
const received: { raw: string; signature: string | null; body: any }[] = [];
let page: { status: number; body: string } = { status: 200, body: '' };
let hubLinks = true;

const html = (title: string, text: string) => `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
const NEVER = { cron: '0 0 1 1 *', timezone: 'UTC' }; // the scheduler never fires during the test

beforeAll(async () => {
  page = { status: 200, body: html('Tides', 'High water at 06:10.') };
  site = serveFixtures({
    '/tides': () => new Response(page.body, { status: page.status, headers: { 'content-type': 'text/html; charset=utf-8' } }),
    '/': () => new Response(html('Hub', hubLinks ? '<a href="/a">A</a> <a href="/b">B</a>' : '<a href="/a">A</a>'), { headers: { 'content-type': 'text/html' } }),
    '/a': html('A', 'Page a.'),
    '/b': html('B', 'Page b.'),
  });
  receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const raw = await req.text();
      received.push({ raw, signature: req.headers.get('x-firecrawl-signature'), body: JSON.parse(raw) });
      return new Response('ok');
    },
  });
  trawl = await startAccountsTrawl();
  key = await trawl.key({ credits: 10_000 });
  other = await trawl.key({ credits: 10_000 });
  fc = new Firecrawl({ apiKey: key.key, apiUrl: trawl.base });
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
  receiver?.stop(true);
});

/** Runs a check through the SDK and waits for its end; returns the detail with every page. */
async function runAndWait(monitorId: string) {
  const started = await fc.runMonitor(monitorId);
  expect(started.status).toBe('queued');
  for (let i = 0; i < 600; i++) {
    const c = await fc.getMonitorCheck(monitorId, started.id, { limit: 1 });
    if (c.status !== 'queued' && c.status !== 'running') return c;
    await Bun.sleep(100);
  }
  throw new Error('check did not finish');
}

describe('SDK monitor methods over a changing page', () => {
  let id: string;

  test('create (schedule text → cron), get, list', async () => {
    const m = await fc.createMonitor({
      name: 'tides',
      schedule: { text: 'every 6 hours', timezone: 'Europe/Berlin' },
      targets: [{ type: 'scrape', urls: [site.url('/tides')] }],
      webhook: { url: `http://127.0.0.1:${receiver.port}/hook`, metadata: { who: 'test' }, events: ['monitor.page', 'monitor.check.completed'] },
    });
    id = m.id;
    expect(m.status).toBe('active');
    expect(m.schedule).toEqual({ cron: '0 */6 * * *', text: 'every 6 hours', timezone: 'Europe/Berlin' });
    expect(m.retentionDays).toBe(30);
    expect(new Date(m.nextRunAt!).getTime()).toBeGreaterThan(Date.now());
    expect((m.targets[0] as { id?: string }).id).toBeString();
    expect((await fc.getMonitor(id)).name).toBe('tides');
    expect((await fc.listMonitors()).map((x) => x.id)).toContain(id);
  });

  test('new → same → changed (git diff) → removed, with summaries', async () => {
    const first = await runAndWait(id);
    expect(first.status).toBe('completed');
    expect(first.summary).toEqual({ totalPages: 1, same: 0, changed: 0, new: 1, removed: 0, error: 0 });
    expect(first.pages[0]).toMatchObject({ url: site.url('/tides'), status: 'new' });
    expect((first.pages[0] as any).changeTracking.changeStatus).toBe('new');

    const second = await runAndWait(id);
    expect(second.summary).toMatchObject({ totalPages: 1, same: 1, changed: 0, new: 0 });
    expect(second.pages[0].previousScrapeId).toBe(first.pages[0].currentScrapeId);

    page.body = html('Tides', 'High water at 07:45.');
    const third = await runAndWait(id);
    expect(third.summary).toMatchObject({ totalPages: 1, changed: 1 });
    expect(third.pages[0].status).toBe('changed');
    expect(third.pages[0].diff?.text).toContain('-High water at 06:10.');
    expect(third.pages[0].diff?.text).toContain('+High water at 07:45.');
    expect((third.pages[0].diff?.json as { files: unknown[] }).files.length).toBe(1);

    page.status = 404;
    const fourth = await runAndWait(id);
    expect(fourth.summary).toMatchObject({ totalPages: 1, removed: 1, error: 0 });
    expect(fourth.pages[0].status).toBe('removed');

    const checks = await fc.listMonitorChecks(id);
    expect(checks.map((c) => c.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(checks.every((c) => c.trigger === 'manual' && c.monitorId === id)).toBe(true);
    expect((await fc.listMonitorChecks(id, { limit: 2, offset: 1 })).map((c) => c.id)).toEqual(checks.slice(1, 3).map((c) => c.id));
    expect((await fc.getMonitor(id)).lastCheckSummary).toEqual(fourth.summary);
  });

  test('webhooks: one signed monitor.page per new/changed/removed page, one monitor.check.completed per check', async () => {
    for (let i = 0; i < 300 && received.filter((r) => r.body.type === 'monitor.check.completed').length < 4; i++) await Bun.sleep(100);
    const pages = received.filter((r) => r.body.type === 'monitor.page');
    const completed = received.filter((r) => r.body.type === 'monitor.check.completed');
    expect(completed.length).toBe(4);
    expect(pages.map((r) => r.body.data[0].status).sort()).toEqual(['changed', 'new', 'removed']);
    expect(pages.every((r) => r.body.data[0].monitorId === id && r.body.metadata.who === 'test')).toBe(true);
    const secret = await teamWebhookSecret(trawl.running.services.db, key.team, undefined);
    expect(secret).toBeString();
    for (const r of received) expect(verifySignature(r.raw, r.signature, secret!)).toBe(true);
  });

  test('update: pause → run answers 409 (SDK throws), resume; a new schedule moves nextRunAt; delete', async () => {
    const paused = await fc.updateMonitor(id, { status: 'paused' });
    expect(paused.status).toBe('paused');
    expect(paused.nextRunAt).toBeNull();
    const res = await trawl.post(`/v2/monitor/${id}/run`, {}, trawl.auth(key.key));
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('paused');
    await expect(fc.runMonitor(id)).rejects.toThrow(/paused/);
    const resumed = await fc.updateMonitor(id, { status: 'active', schedule: { cron: '*/30 * * * *' } });
    expect(resumed.schedule.cron).toBe('*/30 * * * *');
    expect(resumed.schedule.timezone).toBe('Europe/Berlin');
    expect(new Date(resumed.nextRunAt!).getUTCMinutes() % 30).toBe(0);
    expect(await fc.deleteMonitor(id)).toBe(true);
    expect((await trawl.get(`/v2/monitor/${id}`, trawl.auth(key.key))).status).toBe(404);
  });
});

describe('crawl target', () => {
  test('a page no longer linked is removed; the others stay the same', async () => {
    const m = await fc.createMonitor({ name: 'hub', schedule: NEVER, targets: [{ type: 'crawl', url: site.url('/'), crawlOptions: { limit: 10, sitemap: 'skip' } }] });
    const first = await runAndWait(m.id);
    expect(first.status).toBe('completed');
    expect(first.summary).toMatchObject({ totalPages: 3, new: 3 });
    expect((first.targetResults![0] as { crawlId?: string }).crawlId).toBeString();
    hubLinks = false;
    const second = await runAndWait(m.id);
    const byUrl = Object.fromEntries(second.pages.map((p) => [new URL(p.url).pathname, p.status]));
    expect(byUrl).toEqual({ '/': 'changed', '/a': 'same', '/b': 'removed' });
    expect(second.summary).toEqual({ totalPages: 3, same: 1, changed: 1, new: 0, removed: 1, error: 0 });
  });
});

describe('search target', () => {
  test('the result URLs of each query are scraped with change tracking (local index)', async () => {
    // A plain scrape puts the page in this team's local search index (monitor pages are not indexed:
    // change tracking is never cached, so never indexed).
    expect((await trawl.post('/v2/scrape', { url: site.url('/a') }, trawl.auth(key.key))).status).toBe(200);
    const m = await fc.createMonitor({ name: 'search', schedule: NEVER, targets: [{ type: 'search', queries: ['Page a'], maxResults: 3 }] });
    const first = await runAndWait(m.id);
    expect(first.status).toBe('completed');
    const result = first.targetResults![0] as { type: string; searchCompleted?: boolean; resultCount?: number };
    expect(result).toMatchObject({ type: 'search', searchCompleted: true });
    expect(result.resultCount).toBeGreaterThan(0);
    expect(first.pages.map((p) => new URL(p.url).pathname)).toContain('/a');
    expect(first.pages.every((p) => p.status === 'new')).toBe(true);
    const second = await runAndWait(m.id);
    expect(second.pages.find((p) => new URL(p.url).pathname === '/a')?.status).toBe('same');
  });
});

describe('bad input: clear 4xx, never 500', () => {
  const body = (over: Record<string, unknown>) => ({ name: 'm', schedule: NEVER, targets: [{ type: 'scrape', urls: [site.url('/a')] }], ...over });
  const post = (b: unknown, k = key.key) => trawl.post('/v2/monitor', b, trawl.auth(k));

  test('schedule, targets and fields', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ schedule: { cron: '61 * * * *' } }, /schedule\.cron.*minute/],
      [{ schedule: { cron: 'every day' } }, /five fields/],
      [{ schedule: { cron: '* * * * * *' } }, /five fields/],
      [{ schedule: { text: 'whenever you like' } }, /not understood/],
      [{ schedule: { cron: '* * * * *', text: 'hourly' } }, /exactly one of cron/],
      [{ schedule: { cron: '0 * * * *', timezone: 'Mars/Olympus' } }, /timezone "Mars\/Olympus"/],
      [{ targets: [] }, /at least one target/],
      [{ targets: Array.from({ length: 51 }, () => ({ type: 'scrape', urls: [site.url('/a')] })) }, /at most 50 targets/],
      [{ targets: [{ type: 'scrape', urls: [] }] }, /targets\[0\]\.urls/],
      [{ targets: [{ type: 'crawl' }] }, /targets\[0\]\.url is required/],
      [{ targets: [{ type: 'scrape', urls: ['not a url'] }] }, /targets\[0\]\.urls/],
      [{ targets: [{ type: 'scrape', urls: [site.url('/a')], scrapeOptions: { formats: ['nope'] } }] }, /targets\[0\]\.scrapeOptions/],
      [{ retentionDays: 0 }, /retentionDays/],
      [{ name: '' }, /name/],
      [{ judgeEnabled: true }, /judgeEnabled/],
      [{ webhook: 'ftp://x' }, /webhook/],
      [{ targets: [{ type: 'scrape', urls: [site.url('/a')], scrapeOptions: { zeroDataRetention: true } }] }, /zero data retention/],
      [{ targets: [{ type: 'crawl', url: site.url('/'), crawlOptions: { prompt: 'docs only' } }] }, /prompt is not supported/],
      [{ targets: [{ type: 'search', queries: ['x'], searchWindow: '2y' }] }, /searchWindow/],
      [{ targets: [{ type: 'scrape', urls: [site.url('/a')], id: 'x' }, { type: 'scrape', urls: [site.url('/b')], id: 'x' }] }, /used twice/],
    ];
    for (const [over, message] of cases) {
      const res = await post(body(over));
      expect({ over, status: res.status }).toEqual({ over, status: 400 });
      expect(res.body.error).toMatch(message);
    }
    const t50 = await post(body({ targets: Array.from({ length: 50 }, () => ({ type: 'scrape', urls: [site.url('/a')] })) }));
    expect(t50.status).toBe(200);
    const missingType = await post(body({ targets: [{ urls: [site.url('/a')] }] }));
    expect(missingType.status).toBe(400);
  });

  test('unknown id → 404, another team → 403, bad paging → 400, no key → 401', async () => {
    const created = await post(body({}));
    const id = created.body.data.id;
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/run'], ['GET', '/checks'], ['GET', '/checks/0198']] as const) {
      for (const [mid, k, status] of [['0198c2d0-0000-7000-8000-000000000000', key.key, 404], ['junk', key.key, 404], [id, other.key, 403]] as const) {
        const res = await fetch(`${trawl.base}/v2/monitor/${mid}${path}`, {
          method, headers: { ...trawl.auth(k), 'content-type': 'application/json' }, body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
        });
        expect({ method, path, mid, status: res.status }).toEqual({ method, path, mid, status });
      }
    }
    expect((await trawl.get(`/v2/monitor/${id}/checks/0198c2d0-0000-7000-8000-000000000000`, trawl.auth(key.key))).status).toBe(404);
    expect((await trawl.get('/v2/monitor?limit=0', trawl.auth(key.key))).status).toBe(400);
    expect((await trawl.get('/v2/monitor')).status).toBe(401);
    expect((await trawl.get(`/v2/monitor/${id}`, trawl.auth(other.key))).body.error).toBe('Forbidden');
  });

  test('a run while a check is running → 409; a key without the monitor group → 403', async () => {
    const slow = serveFixtures({ '/slow': async () => (await Bun.sleep(3000), new Response(html('Slow', 'x'), { headers: { 'content-type': 'text/html' } })) });
    try {
      const created = await post(body({ targets: [{ type: 'scrape', urls: [slow.url('/slow')] }] }));
      const id = created.body.data.id;
      expect((await trawl.post(`/v2/monitor/${id}/run`, {}, trawl.auth(key.key))).status).toBe(200);
      const again = await trawl.post(`/v2/monitor/${id}/run`, {}, trawl.auth(key.key));
      expect(again.status).toBe(409);
      expect(again.body.error).toContain('already running');
    } finally {
      slow.stop();
    }
    const restricted = await trawl.key({ team: key.team, endpoints: ['scrape'] });
    const res = await post(body({}), restricted.key);
    expect(res.status).toBe(403);
    expect(res.body.error).toContain('monitor');
  });
});
