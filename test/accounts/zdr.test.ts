/**
 * Zero data retention (interface.md scrape/crawl `zeroDataRetention`, search `enterprise: ["zdr"]`):
 * refused with 400 unless the team has it enabled; when enabled the scrape returns its content but
 * stores no document, nothing in the cache, and no URL in the logs (checked on the log output of a
 * separate Trawl process at trace level); the ledger records the charge without a URL.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { createTestDatabaseConfig, type TestDatabaseConfig } from '../helpers/db.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { openDatabase, type Database } from '../../core/db/client.ts';
import { silentLogger } from '../../core/log.ts';
import { runAdmin } from '../../core/admin/cli.ts';
import { spawnTrawl, type TrawlProcess } from './processes.ts';

setDefaultTimeout(60_000);

const SECRET = `zdr-${crypto.randomUUID()}`;
const VISIBLE = `normal-${crypto.randomUUID()}`;
const page = (text: string) => `<html><head><title>Private</title></head><body><main><p>${text}</p></main></body></html>`;

let site: FixtureSite;
let created: TestDatabaseConfig;
let db: Database;
let trawl: TrawlProcess;
let zdrKey: string;
let zdrTeam: string;
let plainKey: string;

async function makeKey(zdr: boolean): Promise<{ key: string; team: string }> {
  let out = '';
  const io = { out: (t: string) => (out += t), err: (t: string) => (out += t), defaults: { credits: 100, concurrency: 4 } };
  const name = `zdr-${crypto.randomUUID().slice(0, 8)}`;
  expect(await runAdmin(['teams', 'create', name, '--zdr', zdr ? 'on' : 'off'], db, io)).toBe(0);
  const team = out.split(/\s+/)[0];
  expect(await runAdmin(['keys', 'create', '--team', name], db, io)).toBe(0);
  return { key: out.match(/fc-[0-9a-f]{32}/)![0], team };
}

async function post(path: string, body: unknown, key?: string) {
  const res = await fetch(trawl.base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  site = serveFixtures({ [`/${SECRET}`]: page('Account number 1234.'), [`/${VISIBLE}`]: page('Public text.') });
  created = await createTestDatabaseConfig('postgres', { migrated: true });
  db = await openDatabase(created.config, silentLogger);
  trawl = await spawnTrawl('serve', { DATABASE_URL: created.config.databaseUrl!, TRAWL_LOG_LEVEL: 'trace' });
  ({ key: zdrKey, team: zdrTeam } = await makeKey(true));
  plainKey = (await makeKey(false)).key;
});

afterAll(async () => {
  await trawl?.stop();
  await db?.close();
  await created?.cleanup();
  site?.stop();
});

describe('not enabled', () => {
  const expectRefused = (res: { status: number; body: any }) => {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'zero data retention is not enabled for this team' });
  };

  test('scrape, crawl, batch and search refuse it with 400', async () => {
    expectRefused(await post('/v2/scrape', { url: site.url(`/${VISIBLE}`), zeroDataRetention: true }, plainKey));
    expectRefused(await post('/v2/scrape', { url: site.url(`/${VISIBLE}`), zeroDataRetention: true })); // keyless
    expectRefused(await post('/v1/scrape', { url: site.url(`/${VISIBLE}`), zeroDataRetention: true }, plainKey));
    expectRefused(await post('/v2/crawl', { url: site.url(`/${VISIBLE}`), limit: 1, zeroDataRetention: true }, plainKey));
    expectRefused(await post('/v2/batch/scrape', { urls: [site.url(`/${VISIBLE}`)], zeroDataRetention: true }, plainKey));
    expectRefused(await post('/v2/search', { query: 'private', enterprise: ['zdr'] }, plainKey));
  });
});

describe('enabled', () => {
  test('the content is returned, nothing is stored, the URL is not logged', async () => {
    const before = await db.query<{ credits: number }>('select credits from teams where id = $1', [zdrTeam]);
    const res = await post('/v2/scrape', { url: site.url(`/${SECRET}`), zeroDataRetention: true }, zdrKey);
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('Account number 1234.');
    const id = res.body.data.metadata.scrapeId;
    // No document, nothing retrievable.
    expect(await db.query('select 1 from documents where id = $1', [id])).toEqual([]);
    const again = await fetch(`${trawl.base}/v2/scrape/${id}`, { headers: { authorization: `Bearer ${zdrKey}` } });
    expect(again.status).not.toBe(200);
    // Charged once, and the ledger holds no URL.
    const after = await db.query<{ credits: number }>('select credits from teams where id = $1', [zdrTeam]);
    expect(Number(after[0].credits)).toBe(Number(before[0].credits) - 1);
    const ledger = await db.query('select * from credit_ledger where ref_id = $1', [id]);
    expect(ledger.length).toBe(1);
    expect(JSON.stringify(ledger)).not.toContain(SECRET);
    // Nothing in the tables of documents, jobs, credits, the queue or the cache mentions the URL.
    for (const table of ['documents', 'jobs', 'credit_ledger', 'queue_jobs', 'scrape_cache']) {
      const rows = await db.query(`select * from ${table}`).catch(() => []);
      expect(JSON.stringify(rows)).not.toContain(SECRET);
    }
    // The logs (trace level) show normal scrapes' URLs but never the ZDR one.
    expect((await post('/v2/scrape', { url: site.url(`/${VISIBLE}`) }, zdrKey)).status).toBe(200);
    await Bun.sleep(200);
    expect(trawl.output()).toContain(VISIBLE);
    expect(trawl.output()).not.toContain(SECRET);
  });
});

// The queue drops a ZDR scrape's result once delivered (QueueDriver.forget), and the cache never
// holds it: a cache-only read of the same URL finds nothing.
describe('enabled, cache', () => {
  test('a ZDR scrape leaves nothing in the cache', async () => {
    const url = site.url(`/${SECRET}`);
    expect((await post('/v2/scrape', { url, zeroDataRetention: true }, zdrKey)).status).toBe(200);
    const cached = await post('/v2/scrape', { url, minAge: 1 }, zdrKey);
    expect(cached.status).toBe(404);
    expect(cached.body.code).toBe('SCRAPE_NO_CACHED_DATA');
    const visible = site.url(`/${VISIBLE}`);
    expect((await post('/v2/scrape', { url: visible }, zdrKey)).status).toBe(200);
    const hit = await post('/v2/scrape', { url: visible, minAge: 1 }, zdrKey);
    expect(hit.status).toBe(200);
    expect(hit.body.data.metadata.cacheState).toBe('hit');
  });
});
