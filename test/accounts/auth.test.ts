/**
 * Authentication through the HTTP API with real keys (interface.md "Authentication", "Errors";
 * compat.md §1.3, §18.3): every 401 path, keyless access, revocation and restriction changes applied
 * within the cache period, failing closed when restrictions cannot be read, the v0 rule, the admin
 * key of a new instance and the auth-off mode.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from './helpers.ts';

setDefaultTimeout(60_000);

const PAGE = '<html><head><title>Harbour</title></head><body><main><h1>Harbour</h1><p>Boats come and go with the tide.</p></main></body></html>';
const UNAUTHORIZED = { success: false, error: 'Unauthorized: Invalid token' };

let site: FixtureSite;
let trawl: AccountsTrawl;

beforeAll(async () => {
  site = serveFixtures({ '/page': PAGE });
  trawl = await startAccountsTrawl({ TRAWL_AUTH_CACHE_MS: '800' });
});

afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

describe('401', () => {
  test('no key on an endpoint that needs one', async () => {
    for (const path of ['/v2/team/credit-usage', '/v2/team/token-usage', '/v2/team/queue-status', '/v2/concurrency-check', '/v1/team/credit-usage']) {
      const res = await trawl.get(path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
  });

  test('an unknown key, also on keyless endpoints (a bad key is never treated as no key)', async () => {
    const bad = trawl.auth('fc-00000000000000000000000000000000');
    expect((await trawl.get('/v2/team/credit-usage', bad)).status).toBe(401);
    const res = await trawl.post('/v2/scrape', { url: site.url('/page') }, bad);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect((await trawl.get('/v2/team/credit-usage', { authorization: 'Basic abc' })).status).toBe(401);
  });

  test('a revoked key, within the cache period', async () => {
    const { key, id } = await trawl.key();
    expect((await trawl.get('/v2/team/credit-usage', trawl.auth(key))).status).toBe(200);
    const r = await trawl.admin('keys', 'revoke', id);
    expect(r.code).toBe(0);
    expect(r.out).toContain('REVOKED');
    await Bun.sleep(900);
    expect((await trawl.get('/v2/team/credit-usage', trawl.auth(key))).status).toBe(401);
    const listed = await trawl.admin('keys', 'list', '--all');
    expect(listed.out).toContain(id);
    expect((await trawl.admin('keys', 'list')).out).not.toContain(id);
  });
});

describe('keyless access', () => {
  test('scrape works without a key', async () => {
    const res = await trawl.post('/v2/scrape', { url: site.url('/page') });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('Boats come and go');
  });

  test('search works without a key', async () => {
    const res = await trawl.post('/v2/search', { query: 'harbour boats' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  test('every other endpoint answers 401', async () => {
    const id = '01a1fce3-1098-770d-a811-02c081cc8afd';
    const calls = [
      trawl.get('/v2/concurrency-check'),
      trawl.post('/v2/crawl', { url: site.url('/page') }),
      trawl.get(`/v2/crawl/${id}`),
      trawl.get(`/v2/crawl/${id}/errors`),
      trawl.get('/v2/crawl/active'),
      trawl.post('/v2/batch/scrape', { urls: [site.url('/page')] }),
      trawl.get(`/v2/batch/scrape/${id}`),
      trawl.post('/v2/map', { url: site.url('/page') }),
      trawl.post('/v1/crawl', { url: site.url('/page') }),
      trawl.post('/v1/map', { url: site.url('/page') }),
      trawl.post(`/v2/search/${id}/feedback`, { rating: 'good' }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
    const del = await fetch(`${trawl.base}/v2/crawl/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(401);
  });

  test('parse works without a key', async () => {
    const form = new FormData();
    form.append('file', new File([PAGE], 'harbour.html', { type: 'text/html' }));
    const res = await fetch(`${trawl.base}/v2/parse`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.markdown).toContain('Boats come and go');
  });

  test('interact works without a key', async () => {
    const scraped = await trawl.post('/v2/scrape', { url: site.url('/page'), maxAge: 0 });
    const id = scraped.body.data.metadata.scrapeId;
    const res = await trawl.post(`/v2/scrape/${id}/interact`, { code: 'return await page.title()' });
    expect(res.status).toBe(200);
    expect(res.body.stdout).toBe('Harbour\n');
    expect((await fetch(`${trawl.base}/v2/scrape/${id}/interact`, { method: 'DELETE' })).status).toBe(200);
  });
});

describe('keys', () => {
  test('the admin key printed on first start works', async () => {
    expect(trawl.adminKey).toMatch(/^fc-[0-9a-f]{32}$/);
    const res = await trawl.get('/v2/team/credit-usage', trawl.auth(trawl.adminKey!));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  test('only the hash of a key is stored', async () => {
    const { key, id } = await trawl.key();
    const rows = await trawl.running.services.db.query<Record<string, unknown>>('select * from api_keys where id = $1', [id]);
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows[0].key_prefix).toBe(key.slice(0, 8));
    const listed = await trawl.admin('keys', 'list');
    expect(listed.out).not.toContain(key);
  });

  test('a restriction change applies within the cache period', async () => {
    const { key, id } = await trawl.key();
    expect((await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['html'] }, trawl.auth(key))).status).toBe(200);
    expect((await trawl.admin('keys', 'restrict', id, '--formats', 'markdown')).code).toBe(0);
    await Bun.sleep(900);
    const res = await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['html'] }, trawl.auth(key));
    expect(res.status).toBe(403);
    expect((await trawl.admin('keys', 'restrict', id, '--formats', '')).code).toBe(0);
    await Bun.sleep(900);
    expect((await trawl.post('/v2/scrape', { url: site.url('/page'), formats: ['html'] }, trawl.auth(key))).status).toBe(200);
  });

  test('restrictions that cannot be verified fail closed with 500 UNKNOWN_ERROR', async () => {
    const { key, id } = await trawl.key({ formats: ['markdown'] });
    await trawl.running.services.db.query(`update api_keys set allowed_formats = '{"markdown": true}'::jsonb where id = $1`, [id]);
    await Bun.sleep(900);
    for (const res of [
      await trawl.post('/v2/scrape', { url: site.url('/page') }, trawl.auth(key)),
      await trawl.get('/v2/team/credit-usage', trawl.auth(key)),
    ]) {
      expect(res.status).toBe(500);
      expect(res.body.success).toBe(false);
      expect(res.body.code).toBe('UNKNOWN_ERROR');
      expect(res.body.error).toContain('could not be verified');
    }
  });

  test('admin commands refuse unknown formats and endpoint groups', async () => {
    const t = await trawl.team();
    const bad = await trawl.admin('keys', 'create', '--team', t, '--formats', 'markdown,holograms');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('Unknown format holograms');
    const badGroup = await trawl.admin('keys', 'create', '--team', t, '--endpoints', 'teleport');
    expect(badGroup.code).toBe(1);
    expect(badGroup.err).toContain('Unknown endpoint group teleport');
    expect((await trawl.admin('keys', 'create')).code).toBe(1);
    expect((await trawl.admin('keys', 'frobnicate')).code).toBe(2);
  });
});

describe('v0', () => {
  test('a restricted key gets 403, others 404', async () => {
    const restricted = await trawl.key({ endpoints: ['scrape'] });
    const formatOnly = await trawl.key({ formats: ['markdown'] });
    const plain = await trawl.key();
    for (const { key } of [restricted, formatOnly]) {
      const res = await trawl.post('/v0/scrape', { url: site.url('/page') }, trawl.auth(key));
      expect(res.status).toBe(403);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toContain('restrictions');
      expect((await trawl.get('/v0/crawl/status/abc', trawl.auth(key))).status).toBe(403);
    }
    expect((await trawl.post('/v0/scrape', { url: site.url('/page') }, trawl.auth(plain.key))).status).toBe(404);
    expect((await trawl.post('/v0/scrape', { url: site.url('/page') })).status).toBe(404);
  });
});

test('TRAWL_AUTH=off accepts every call as the local team', async () => {
  const open = await startAccountsTrawl({ TRAWL_AUTH: 'off' });
  try {
    expect(open.adminKey).toBeUndefined();
    const res = await open.get('/v2/team/credit-usage');
    expect(res.status).toBe(200);
    expect(res.body.data.remainingCredits).toBeGreaterThan(0);
    expect((await open.get('/v2/team/credit-usage', open.auth('fc-whatever'))).status).toBe(200);
  } finally {
    await open.stop();
  }
});
