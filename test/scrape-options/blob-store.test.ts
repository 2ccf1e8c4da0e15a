/**
 * The database blob store (core/blob-stores/database.ts): the same contract on PGlite and Postgres,
 * and, with DATABASE_URL and REDIS_URL shared by two Trawl processes, a screenshot taken by the
 * serving node is served by another API node (issue 3 scope 3: "any API node can serve them").
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createDatabaseBlobStore, type DatabaseBlobStore } from '../../core/blob-stores/database.ts';
import { createTestDatabaseConfig, forEachDatabase, openTestDatabase, type TestDatabase, type TestDatabaseConfig } from '../helpers/db.ts';
import { startSite, type Site } from './site.ts';
import { download, pngSize, startOn, type TestTrawl } from './helpers.ts';

setDefaultTimeout(60_000);

forEachDatabase((kind) => {
  let t: TestDatabase;
  let store: DatabaseBlobStore;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    store = createDatabaseBlobStore(t.db, () => 'http://trawl.test/');
  }, 60_000);
  afterAll(() => t?.close());

  test('put, get, url, delete', async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255, 0, 128]);
    const key = await store.put(bytes, 'image/png', 60_000);
    expect(key).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(store.url(key)).toBe(`http://trawl.test/v2/blobs/${key}`);
    const got = await store.get(key);
    expect(got?.contentType).toBe('image/png');
    expect([...got!.bytes]).toEqual([...bytes]);
    const pdf = await store.put(new TextEncoder().encode('%PDF-1.4'), 'application/pdf', 60_000);
    expect(pdf).toEndWith('.pdf');
    expect(await store.delete(key)).toBe(true);
    expect(await store.get(key)).toBeUndefined();
    expect(await store.delete(key)).toBe(false);
  });

  test('expired blobs read as missing and are swept; bad keys are never looked up', async () => {
    const gone = await store.put(new Uint8Array([1]), 'text/plain', 0);
    const kept = await store.put(new Uint8Array([2]), 'text/plain', 60_000);
    await Bun.sleep(5);
    expect(await store.get(gone)).toBeUndefined();
    expect(await store.sweep()).toBeGreaterThanOrEqual(1);
    expect((await t.db.query('select key from blobs')).map((r) => r.key)).not.toContain(gone);
    expect(await store.get(kept)).toBeDefined();
    expect(await store.get("x' or 1=1 --")).toBeUndefined();
    expect(await store.get('../../etc/passwd')).toBeUndefined();
  });

  test('a large blob round-trips', async () => {
    const big = new Uint8Array(1024 * 1024).map((_, i) => (i * 7) % 256);
    const key = await store.put(big, 'image/png', 60_000);
    const got = await store.get(key);
    expect(got!.bytes.length).toBe(big.length);
    expect(Buffer.compare(Buffer.from(got!.bytes), Buffer.from(big))).toBe(0);
  });
});

describe('two processes on one Postgres', () => {
  let site: Site;
  let db: TestDatabaseConfig;
  let serving: TestTrawl;
  let api: TestTrawl;
  const prefix = `trawl-blobs-${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    site = startSite();
    db = await createTestDatabaseConfig('postgres', { migrated: true });
    const shared = { DATABASE_URL: db.config.databaseUrl!, REDIS_URL: 'redis://127.0.0.1:6379', TRAWL_REDIS_PREFIX: prefix };
    serving = await startOn(shared);
    api = await startOn(shared, 'api');
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await serving?.stop();
    await db?.cleanup();
    site?.stop();
  }, 60_000);

  test('a screenshot stored by one node is served by the other', async () => {
    const res = await serving.post('/v2/scrape', { url: site.url('/article'), formats: [{ type: 'screenshot', viewport: { width: 640, height: 400 } }] });
    expect(res.status).toBe(200);
    const key = res.body.data.screenshot.split('/').pop();
    const here = await download(res.body.data.screenshot);
    const there = await download(`${api.base}/v2/blobs/${key}`);
    expect(there.status).toBe(200);
    expect(there.type).toBe('image/png');
    expect(pngSize(there.bytes)).toEqual({ width: 640, height: 400 });
    expect(Buffer.compare(Buffer.from(here.bytes), Buffer.from(there.bytes))).toBe(0);
  });
});
