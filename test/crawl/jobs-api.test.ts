/**
 * Crawl and batch jobs through the HTTP API (compat.md §6–§9, §17): batch scrape (flat options,
 * invalid URLs, appendToId, idempotency), cancel, the active list, 404/403/"Job expired", signed
 * webhooks seen in order by a receiver that verifies every signature, and the WebSocket protocol.
 */
import { afterAll, beforeAll, setDefaultTimeout, describe, expect, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { createKey, createTeam } from '../../core/auth/keys.ts';
import { verifySignature } from '../../core/webhooks/sign.ts';
import { allDocs, apiOf, crawl, startCrawl, waitDone, type Api } from './helpers.ts';

setDefaultTimeout(60_000);

/** The admin team's webhook secret (issue 15 item 13: each team signs with its own), read once started. */
let SECRET = '';
let trawl: TestTrawl;
let site: CrawlSite;
let api: Api;
const hooks: { type: string; body: any; verified: boolean }[] = [];
let receiver: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  site = startCrawlSite();
  receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const raw = await req.text();
      const verified = verifySignature(raw, req.headers.get('x-service-signature'), SECRET) && req.headers.get('x-firecrawl-signature') === req.headers.get('x-service-signature');
      if (!verified) return new Response('bad signature', { status: 401 });
      const body = JSON.parse(raw);
      hooks.push({ type: body.type, body, verified });
      return new Response('ok');
    },
  });
  trawl = await startTrawl({});
  api = apiOf(trawl);
  SECRET = (await trawl.get('/v2/team/webhook-secret', { authorization: `Bearer ${trawl.adminKey}` })).body.secret;
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
  receiver?.stop(true);
});

const hookUrl = () => `http://127.0.0.1:${receiver.port}/hook`;

describe('batch scrape', () => {
  test('flat options, duplicates kept, sourceURL as given, invalid URLs listed, errors recorded', async () => {
    const port = new URL(site.origin).port;
    const res = await api.post('/v2/batch/scrape', {
      urls: [`${site.origin}/about`, `${site.origin}/about`, `site.localhost:${port}/team`, 'not a url', `http://site.localhost:1/x`],
      formats: ['markdown', 'links'],
      origin: 'js-sdk@4.42.0',
    });
    expect(res.status).toBe(200);
    expect(res.body.invalidURLs).toEqual(['not a url']);
    expect(res.body.url).toBe(`${api.base}/v2/batch/scrape/${res.body.id}`);
    const status = await waitDone(api, `/v2/batch/scrape/${res.body.id}`);
    expect(status).toMatchObject({ status: 'completed', completed: 3, total: 3 });
    const docs = await allDocs(api, `/v2/batch/scrape/${res.body.id}`);
    expect(docs.map((d) => d.metadata.sourceURL).sort()).toEqual([`${site.origin}/about`, `${site.origin}/about`, `site.localhost:${port}/team`].sort());
    for (const d of docs) expect(Array.isArray(d.links)).toBe(true);
    const errors = (await api.get(`/v2/batch/scrape/${res.body.id}/errors`)).body;
    expect(errors.errors.map((e: any) => [e.url, e.code])).toEqual([['http://site.localhost:1/x', 'SCRAPE_SITE_ERROR']]);
    expect(errors.robotsBlocked).toEqual([]);
  });

  test('ignoreInvalidURLs:false and no valid URL are 400s', async () => {
    const strict = await api.post('/v2/batch/scrape', { urls: [`${site.origin}/about`, 'not a url'], ignoreInvalidURLs: false });
    expect(strict.status).toBe(400);
    const none = await api.post('/v2/batch/scrape', { urls: ['not a url'] });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('No valid URLs provided');
  });

  test('appendToId adds URLs to the same batch; idempotency key reuse is a 409', async () => {
    const headers = { 'x-idempotency-key': `key-${Date.now()}` };
    const first = await api.post('/v2/batch/scrape', { urls: [`${site.origin}/about`] }, headers);
    expect(first.status).toBe(200);
    const again = await api.post('/v2/batch/scrape', { urls: [`${site.origin}/about`] }, headers);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, error: 'Idempotency key already used' });
    await waitDone(api, `/v2/batch/scrape/${first.body.id}`);
    const appended = await api.post('/v2/batch/scrape', { urls: [`${site.origin}/team`, `${site.origin}/orphan`], appendToId: first.body.id });
    expect(appended.body.id).toBe(first.body.id);
    const status = await waitDone(api, `/v2/batch/scrape/${first.body.id}`);
    expect(status).toMatchObject({ status: 'completed', completed: 3, total: 3 });
  });
});

describe('crawl jobs', () => {
  test('active list within 300 ms; cancel answers exactly {"status":"cancelled"}; pending pages get SCRAPE_JOB_CANCELLED', async () => {
    site.setLatency(400);
    try {
      const id = await startCrawl(api, { url: `${site.origin}/`, maxConcurrency: 2 });
      // the job row exists before the start response: the very first read lists it
      const active = await api.get('/v2/crawl/active');
      expect(active.body.success).toBe(true);
      const listed = active.body.crawls.find((c: any) => c.id === id);
      expect(listed).toMatchObject({ id, url: `${site.origin}/`, options: { maxConcurrency: 2 } });
      expect(typeof listed.teamId).toBe('string');
      expect((await api.get('/v2/crawl/ongoing')).body.crawls.some((c: any) => c.id === id)).toBe(true);
      for (let i = 0; i < 300 && (await api.get(`/v2/crawl/${id}?limit=1`)).body.completed < 1; i++) await Bun.sleep(50);
      const cancel = await api.del(`/v2/crawl/${id}`);
      expect(cancel.status).toBe(200);
      expect(cancel.text).toBe('{"status":"cancelled"}');
      const status = (await api.get(`/v2/crawl/${id}`)).body;
      expect(status).toMatchObject({ success: true, status: 'cancelled', active: 0, queued: 0, backlog: 0 });
      expect(status.total).toBe(status.completed);
      expect((await api.get('/v2/crawl/active')).body.crawls.some((c: any) => c.id === id)).toBe(false);
      const errors = (await api.get(`/v2/crawl/${id}/errors`)).body;
      expect(errors.errors.length).toBeGreaterThan(0);
      expect(errors.errors.every((e: any) => e.code === 'SCRAPE_JOB_CANCELLED')).toBe(true);
      await Bun.sleep(800);
      expect((await api.get(`/v2/crawl/${id}`)).body.completed).toBe(status.completed); // nothing lands after the cancel
    } finally {
      site.setLatency(0);
    }
  });

  test('cancelling a completed crawl is a 409; unknown, malformed, foreign and expired ids', async () => {
    const { id } = await crawl(api, { url: `${site.origin}/docs/` });
    const again = await api.del(`/v2/crawl/${id}`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Crawl is already completed');
    expect((await api.get('/v2/crawl/00000000-0000-7000-8000-00000000abcd')).body).toEqual({ success: false, error: 'Job not found' });
    expect((await api.get('/v2/crawl/not-an-id')).status).toBe(404);
    expect((await api.get(`/v2/crawl/00000000-0000-7000-8000-00000000abcd/errors`)).status).toBe(404);
    const db = trawl.running.services.db;
    const other = await createKey(db, await createTeam(db, 'other', 1000, 2));
    const foreign = await api.get(`/v2/crawl/${id}`, { authorization: `Bearer ${other.key}` });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ success: false, error: 'Forbidden' });
    expect((await api.get(`/v2/crawl/${id}`, { authorization: 'Bearer nope' })).status).toBe(401);
    await db.query(`update jobs set expires_at = now() - interval '1 second' where id = $1`, [id]);
    expect((await api.get(`/v2/crawl/${id}`)).body).toEqual({ success: false, error: 'Job expired' });
  });

  test('a crawl whose limit exceeds the credits is a 402', async () => {
    const db = trawl.running.services.db;
    const poor = await createKey(db, await createTeam(db, 'poor', 5, 2));
    const res = await api.post('/v2/crawl', { url: `${site.origin}/`, limit: 10 }, { authorization: `Bearer ${poor.key}` });
    expect(res.status).toBe(402);
    expect((await api.post('/v2/crawl', { url: `${site.origin}/`, limit: 5 }, { authorization: `Bearer ${poor.key}` })).status).toBe(200);
  });

  test('a start URL that cannot be scraped fails the crawl (success:true, status failed, error)', async () => {
    const { status, docs } = await crawl(api, { url: 'http://site.localhost:1/', sitemap: 'skip' });
    expect(status).toMatchObject({ success: true, status: 'failed', completed: 0, total: 0 });
    expect(status.error).toContain('site.localhost:1');
    expect(docs).toEqual([]);
  });
});

describe('webhooks', () => {
  test('crawl events arrive signed and in order; page events match the results', async () => {
    hooks.length = 0;
    const { id, docs } = await crawl(api, { url: `${site.origin}/docs/`, webhook: { url: hookUrl(), metadata: { run: 'r1' } } });
    for (let i = 0; i < 50 && !hooks.some((h) => h.type === 'crawl.completed'); i++) await Bun.sleep(100);
    const mine = hooks.filter((h) => h.body.id === id);
    expect(mine.map((h) => h.type)).toEqual(['crawl.started', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.completed']);
    expect(mine.every((h) => h.verified && h.body.metadata.run === 'r1' && typeof h.body.webhookId === 'string')).toBe(true);
    const pageIds = mine.filter((h) => h.type === 'crawl.page').map((h) => h.body.data[0].metadata.scrapeId).sort();
    expect(pageIds).toEqual(docs.map((d) => d.metadata.scrapeId).sort());
    expect(mine[0].body.data).toEqual([]);
    expect(new Set(mine.map((h) => h.body.webhookId)).size).toBe(mine.length);
  });

  test('events filter, batch events, and an unreachable webhook never fails the job', async () => {
    hooks.length = 0;
    const res = await api.post('/v2/batch/scrape', { urls: [`${site.origin}/about`], webhook: { url: hookUrl(), events: ['completed'] } });
    await waitDone(api, `/v2/batch/scrape/${res.body.id}`);
    for (let i = 0; i < 50 && hooks.length === 0; i++) await Bun.sleep(100);
    expect(hooks.map((h) => h.type)).toEqual(['batch_scrape.completed']);
    const dead = await crawl(api, { url: `${site.origin}/docs/`, webhook: 'http://127.0.0.1:1/hook' });
    expect(dead.status.status).toBe('completed');
  });
});

describe('websocket', () => {
  function watch(path: string, protocols?: string | string[]) {
    const ws = new WebSocket(`${api.base.replace(/^http/, 'ws')}${path}`, protocols);
    const frames: any[] = [];
    const done = new Promise<{ code: number; reason: string; protocol: string }>((resolve) => {
      ws.onmessage = (e) => frames.push(JSON.parse(String(e.data)));
      ws.onclose = (e) => resolve({ code: e.code, reason: e.reason, protocol: ws.protocol });
      ws.onerror = () => {};
    });
    return { frames, done };
  }

  test('catchup, one document frame per new page, close 1000 {"type":"done"}; subprotocol key echoed', async () => {
    site.setLatency(200);
    try {
      const id = await startCrawl(api, { url: `${site.origin}/docs/`, maxConcurrency: 1 });
      const { frames, done } = watch(`/v2/crawl/${id}`, api.key!);
      const end = await done;
      expect(end).toEqual({ code: 1000, reason: '{"type":"done"}', protocol: api.key! });
      expect(frames[0].type).toBe('catchup');
      expect(frames[0].data).toMatchObject({ success: true });
      expect(frames.slice(1).every((f) => f.type === 'document')).toBe(true);
      const viaWs = [...frames[0].data.data, ...frames.slice(1).map((f) => f.data)];
      const polled = await allDocs(api, `/v2/crawl/${id}`);
      expect(viaWs.map((d) => JSON.stringify(d)).sort()).toEqual(polled.map((d) => JSON.stringify(d)).sort());
      expect((await api.get(`/v2/crawl/${id}`)).body.status).toBe('completed');
    } finally {
      site.setLatency(0);
    }
  });

  test('a finished job gets catchup then the close; errors close with their codes', async () => {
    const { id } = await crawl(api, { url: `${site.origin}/docs/` });
    const finished = watch(`/v2/crawl/${id}`, api.key!);
    expect((await finished.done).code).toBe(1000);
    expect(finished.frames.map((f) => f.type)).toEqual(['catchup']);
    expect(finished.frames[0].data.status).toBe('completed');
    expect(finished.frames[0].data.data.length).toBe(3);
    const unknown = watch('/v2/crawl/00000000-0000-7000-8000-00000000abcd', api.key!);
    const u = await unknown.done;
    expect(u.code).toBe(1008);
    expect(JSON.parse(u.reason)).toEqual({ type: 'error', error: 'Job not found' });
    const badKey = await watch(`/v2/crawl/${id}`, 'not-a-key').done;
    expect(badKey.code).toBe(3000);
    const res = await api.post('/v2/batch/scrape', { urls: [`${site.origin}/about`] });
    const batch = watch(`/v2/batch/scrape/${res.body.id}`, api.key!);
    expect((await batch.done).code).toBe(1000);
    const v1 = watch(`/v1/crawl/${id}`, api.key!);
    expect((await v1.done).code).toBe(1000);
  });
});
