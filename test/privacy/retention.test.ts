/**
 * Zero data retention everywhere (issue 17): a lockdown scrape is handled as zero data retention (no
 * stored document, GET /v2/scrape/{id} answers 400, the scrape record and the activity keep no URL),
 * and a zero data retention job's webhook event bodies (its documents) are dropped from the outbox
 * once delivered, while other jobs keep theirs.
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
import { UNGUARDED } from '../../core/net/target-policy.ts';

setDefaultTimeout(60_000);

const PAGE = '<html><head><title>Locked</title></head><body><main><p>Cached content for lockdown.</p></main></body></html>';
let site: FixtureSite;
let trawl: TestTrawl;
beforeAll(async () => {
  site = serveFixtures({ '/locked-page': PAGE });
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
