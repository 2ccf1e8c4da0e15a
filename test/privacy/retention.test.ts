/**
 * Zero data retention everywhere (issue 17): a lockdown scrape is handled as zero data retention (no
 * stored document, GET /v2/scrape/{id} answers 400, the scrape record and the activity keep no URL),
 * and a zero data retention job's webhook event bodies (its documents) are dropped from the outbox
 * once delivered, while other jobs keep theirs. A zero data retention crawl is listed as active
 * without its URL, its jobs row never holds the URL, and its frontier rows forget theirs when it ends.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { recordEvent } from '../../core/webhooks/outbox.ts';
import { dispatchJob } from '../../core/webhooks/deliver.ts';
import { resolveWebhook } from '../../core/webhooks/spec.ts';
import { silentLogger } from '../../core/log.ts';
import { newId } from '../../core/ids.ts';
import { cancelJob, createJob } from '../../core/store/crawls.ts';
import { UNGUARDED } from '../../core/net/target-policy.ts';

setDefaultTimeout(60_000);

const PAGE = '<html><head><title>Locked</title></head><body><main><p>Cached content for lockdown.</p></main></body></html>';
let site: FixtureSite;
let trawl: TestTrawl;
/** Released by the test: the crawl's second page answers only then, so the crawl is seen running. */
let release: () => void = () => {};
const gate = new Promise<void>((r) => (release = r));
beforeAll(async () => {
  site = serveFixtures({
    '/locked-page': PAGE,
    '/zdr/': '<html><body><main><p>Start.</p><a href="/zdr/slow">Slow</a> <a href="/zdr/missing">Missing</a></main></body></html>',
    '/zdr/slow': async () => (await gate, new Response('<html><body><main><p>Slow page.</p></main></body></html>', { headers: { 'content-type': 'text/html' } })),
  });
  trawl = await startTrawl({ TRAWL_AUTH: 'off' });
}, 120_000);
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
}, 60_000);

describe('lockdown is zero data retention', () => {
  test('served from the cache, stored nowhere, not readable back, no URL kept', async () => {
    const url = site.url('/locked-page');
    expect((await trawl.post('/v2/scrape', { url })).status).toBe(200); // fills the cache
    const res = await trawl.post('/v2/scrape', { url, lockdown: true });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('Cached content for lockdown.');
    const id = res.body.data.metadata.scrapeId;
    const again = await trawl.get(`/v2/scrape/${id}`);
    expect(again.status).toBe(400);
    expect(again.body.error).toContain('zero data retention');
    const db = trawl.running.services.db;
    expect(await db.query('select id from documents where id = $1', [id])).toEqual([]);
    const [record] = await db.query<{ url: string | null; options: unknown }>('select url, options from scrape_records where id = $1', [id]);
    expect(record).toEqual({ url: null, options: null });
    const [activity] = await db.query<{ url: string | null; zero_data_retention: boolean }>('select url, zero_data_retention from team_activity where id = $1', [id]);
    expect(activity).toEqual({ url: null, zero_data_retention: true });
  });
});

describe('zero data retention crawl', () => {
  test('the active list and the jobs row never hold the URL; the run forgets its frontier URLs when it ends', async () => {
    const url = site.url('/zdr/');
    const start = await trawl.post('/v2/crawl', { url, limit: 5, zeroDataRetention: true });
    expect(start.body).toMatchObject({ success: true });
    const id = start.body.id;
    const active = await trawl.get('/v2/crawl/active');
    expect(active.body).toMatchObject({ success: true });
    const db = trawl.running.services.db;
    let listed: any;
    for (let i = 0; i < 80 && !listed; i++) {
      listed = (await trawl.get('/v2/crawl/active')).body.crawls.find((c: any) => c.id === id);
      if (!listed) await Bun.sleep(100);
    }
    expect(listed).toBeDefined();
    expect(listed.url).toBeNull();
    expect(JSON.stringify(listed)).not.toContain(site.origin);
    const [job] = await db.query<{ url: string | null; options: unknown }>('select url, options from jobs where id = $1', [id]);
    expect(job!.url).toBeNull();
    expect(JSON.stringify(job!.options)).not.toContain(site.origin);
    // While it runs, the frontier holds what the run needs.
    let running: { url: string }[] = [];
    for (let i = 0; i < 100 && !running.some((r) => r.url.endsWith('/zdr/slow')); i++) {
      running = await db.query<{ url: string }>('select url from crawl_urls where job_id = $1', [id]);
      await Bun.sleep(100);
    }
    expect(running.some((r) => r.url === site.url('/zdr/slow'))).toBe(true);
    release();
    let status: any;
    for (let i = 0; i < 200; i++) {
      status = (await trawl.get(`/v2/crawl/${id}`)).body;
      if (status.status === 'completed') break;
      await Bun.sleep(100);
    }
    expect(status.status).toBe('completed');
    expect(status.completed).toBeGreaterThanOrEqual(2);
    const tables = await Promise.all([
      db.query('select url, source_url, url_key, error from crawl_urls where job_id = $1', [id]),
      db.query('select options, start_error from crawl_jobs where id = $1', [id]),
      db.query('select url, options, error from jobs where id = $1', [id]),
      db.query('select origin from crawl_robots where job_id = $1', [id]),
      db.query('select url from documents where job_id = $1', [id]),
      db.query('select url from team_activity where id = $1', [id]),
    ]);
    const kept = JSON.stringify(tables);
    expect(kept).not.toContain(site.origin);
    expect(kept).not.toContain('/zdr/');
    expect(tables[0].length).toBeGreaterThanOrEqual(3); // rows stay (counts, states), without URLs
    const errors = (await trawl.get(`/v2/crawl/${id}/errors`)).body;
    expect(JSON.stringify(errors)).not.toContain(site.origin);
  });
});

describe('zero data retention batch, cancelled', () => {
  test('a cancelled zero data retention batch forgets its URLs; another batch keeps them', async () => {
    const t = await openTestDatabase('pglite');
    try {
      const urls = [{ url: 'https://secret.example/a', sourceUrl: 'https://secret.example/a' }, { url: 'https://secret.example/b', sourceUrl: 'secret.example/b' }];
      const ids = { zdr: newId(), plain: newId() };
      for (const [kind, id] of Object.entries(ids)) {
        const zeroDataRetention = kind === 'zdr';
        await createJob(t.db, {
          id, teamId: 't', kind: 'batch_scrape', url: urls[0]!.sourceUrl, publicOptions: { urls: urls.map((u) => u.sourceUrl) }, options: { zeroDataRetention },
          concurrency: 1, delayMs: 0, urlLimit: 1e9, zeroDataRetention, urls,
        });
        await cancelJob(t.db, id);
      }
      const kept = async (id: string) => JSON.stringify(await Promise.all([
        t.db.query('select url, options from jobs where id = $1', [id]),
        t.db.query('select url, source_url, url_key, error from crawl_urls where job_id = $1', [id]),
      ]));
      expect(await kept(ids.zdr)).not.toContain('secret.example');
      expect(await kept(ids.plain)).toContain('secret.example');
    } finally {
      await t.close();
    }
  });
});

describe('webhook outbox', () => {
  test('a zero data retention job keeps no event body after delivery; another job keeps its bodies', async () => {
    const t = await openTestDatabase('pglite');
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') });
    try {
      const spec = resolveWebhook(`http://127.0.0.1:${server.port}/hook`);
      const ids = { zdr: newId(), plain: newId() };
      for (const [kind, id] of Object.entries(ids)) {
        await t.db.query(`insert into jobs (id, team_id, kind, status, options, zero_data_retention) values ($1, 't', 'crawl', 'scraping', '{}', $2)`, [id, kind === 'zdr']);
        await t.db.transaction((tx) => recordEvent(tx, spec, { type: 'crawl.page', jobId: id, teamId: 't', success: true, documents: ['{"markdown":"secret page"}'] }));
        await dispatchJob({ db: t.db, log: silentLogger, secretFor: async () => 's', targets: UNGUARDED }, id);
      }
      const rows = await t.db.query<{ job_id: string; status: string; body: string }>('select job_id, status, body from webhook_deliveries');
      const zdr = rows.find((r) => r.job_id === ids.zdr)!;
      const plain = rows.find((r) => r.job_id === ids.plain)!;
      expect(zdr.status).toBe('delivered');
      expect(zdr.body).not.toContain('secret page');
      expect(plain.body).toContain('secret page');
    } finally {
      server.stop(true);
      await t.close();
    }
  });
});
