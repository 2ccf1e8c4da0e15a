/**
 * Extract over raw HTTP (issue 19): bad input answered with a clear 4xx (never 500), auth and key
 * restrictions before any model call, another team's id, `ignoreInvalidURLs`, signed
 * `extract.started|completed` webhooks, cancel, the v1 routes, zero data retention (data returned
 * once), `enableWebSearch` through the local index, and a job whose every page failed.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';
import { startFakeChat, type FakeChat } from '../fakes/openai-chat.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { freePort } from '../crawl/cluster.ts';
import { verifySignature } from '../../core/webhooks/sign.ts';
import { teamWebhookSecret } from '../../core/webhooks/team-secret.ts';
import { answerFor, startBareSite, startShop } from './site.ts';
import { sweepExtracts } from '../../core/extract/status.ts';

setDefaultTimeout(120_000);

let shop: FixtureSite;
let bare: FixtureSite;
let fake: FakeChat;
let t: AccountsTrawl;
let a: { key: string; team: string; id: string };
let b: { key: string; team: string; id: string };
let hold: Promise<void> | undefined;
const hooks: { raw: string; signature: string | null; firecrawl: string | null; type: string }[] = [];
let receiver: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  shop = startShop(10);
  bare = startBareSite();
  fake = startFakeChat({
    respond: (body) => {
      const page = body.messages.filter((m) => m.role === 'user').map((m) => m.content ?? '').join('\n');
      if (page.includes('Widget 9')) return { hang: true };
      return { json: answerFor(page) ?? { products: [] } };
    },
  });
  receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const raw = await req.text();
      hooks.push({ raw, signature: req.headers.get('x-service-signature'), firecrawl: req.headers.get('x-firecrawl-signature'), type: JSON.parse(raw).type });
      return new Response('ok');
    },
  });
  t = await startAccountsTrawl({ OPENAI_BASE_URL: fake.baseUrl, MODEL_NAME: 'fake-extract' });
  a = await t.key({ credits: 10_000, zdr: true });
  b = await t.key({ credits: 10_000 });
});
afterAll(async () => {
  void hold;
  await t?.stop();
  receiver?.stop(true);
  fake?.stop();
  shop?.stop();
  bare?.stop();
});

const post = (body: unknown, key = a.key, path = '/v2/extract') => t.post(path, body, t.auth(key));
const get = (id: string, key = a.key, path = '/v2/extract') => t.get(`${path}/${id}`, t.auth(key));

async function waitEnd(id: string, key = a.key, path = '/v2/extract'): Promise<any> {
  for (let i = 0; i < 900; i++) {
    const r = await get(id, key, path);
    expect(r.status).toBe(200);
    if (r.body.status !== 'processing') return r.body;
    await Bun.sleep(100);
  }
  throw new Error(`extract ${id} still processing`);
}

describe('bad input: clear 4xx, never 500', () => {
  test('no urls and no prompt; no prompt and no schema', async () => {
    const r = await post({});
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('"urls"');
    const s = await post({ urls: [shop.url('/p/1')] });
    expect(s.status).toBe(400);
    expect(s.body.error).toContain('"prompt"');
  });

  test('10,000 urls', async () => {
    const urls = Array.from({ length: 10_000 }, (_, i) => shop.url(`/p/${i}`));
    const r = await post({ urls, prompt: 'products' });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('at most 100');
  });

  test('a glob on a site without a sitemap (and no links under it)', async () => {
    fake.reset();
    const r = await post({ urls: [`${bare.origin}/docs/*`], prompt: 'products' });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('found no pages');
    expect(r.body.error).toContain('List the page URLs instead');
    expect(fake.calls).toBe(0);
  });

  test('an invalid schema', async () => {
    const r = await post({ urls: [shop.url('/p/1')], schema: { type: 'object', properties: { price: { type: 'money' } } } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('schema');
    const s = await post({ urls: [shop.url('/p/1')], schema: 'products' });
    expect(s.status).toBe(400);
  });

  test('a bad timeout; an invalid URL with ignoreInvalidURLs false', async () => {
    expect((await post({ urls: [shop.url('/p/1')], prompt: 'x', timeout: 10 })).status).toBe(400);
    const r = await post({ urls: ['http://exa mple/', shop.url('/p/1')], prompt: 'x', ignoreInvalidURLs: false });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('Invalid URL');
  });

  test("an unknown id, a malformed id, another team's id", async () => {
    const unknown = await get('0190f9b8-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, error: 'Extract job not found' });
    expect((await get('nope')).status).toBe(404);
    const started = await post({ urls: [shop.url('/p/1')], prompt: 'products' });
    expect(started.status).toBe(200);
    const other = await get(started.body.id, b.key);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('Forbidden');
    expect((await t.post(`/v2/extract/${started.body.id}`, undefined)).status).toBe(404);
    const del = await fetch(`${t.base}/v2/extract/${started.body.id}`, { method: 'DELETE', headers: t.auth(b.key) });
    expect(del.status).toBe(403);
    await waitEnd(started.body.id);
  });
});

describe('auth and key restrictions', () => {
  test('keyless and a bad key: 401 and no model call', async () => {
    fake.reset();
    const body = { urls: [shop.url('/p/1')], prompt: 'products' };
    const keyless = await t.post('/v2/extract', body);
    expect(keyless.status).toBe(401);
    const badKey = await t.post('/v2/extract', body, t.auth('fc-00000000000000000000000000000000'));
    expect(badKey.status).toBe(401);
    expect((await t.get('/v2/extract/0190f9b8-0000-7000-8000-000000000000')).status).toBe(401);
    await Bun.sleep(300);
    expect(fake.calls).toBe(0);
  });

  test('a key allowed only scrape gets 403; a key allowed extract gets in', async () => {
    const scrapeOnly = await t.key({ team: b.team, endpoints: ['scrape'] });
    const r = await post({ urls: [shop.url('/p/1')], prompt: 'products' }, scrapeOnly.key);
    expect(r.status).toBe(403);
    expect(r.body.error).toContain('extract');
    const extractKey = await t.key({ team: b.team, endpoints: ['extract'] });
    const ok = await post({ urls: [shop.url('/p/1')], prompt: 'products' }, extractKey.key);
    expect(ok.status).toBe(200);
    expect((await waitEnd(ok.body.id, extractKey.key)).status).toBe('completed');
  });
});

describe('request fields', () => {
  test('ignoreSitemap: a glob over a section only the sitemap lists reads it by default, finds nothing without the sitemap', async () => {
    const r = await post({ urls: [`${shop.origin}/hidden/*`], prompt: 'products', allowExternalLinks: true, agent: { model: 'spark-1-mini' } });
    expect(r.status).toBe(200);
    const done = await waitEnd(r.body.id);
    expect(done.data.products).toEqual([{ name: 'Widget 11', price: 21 }]);
    // accepted for compatibility, answered with a warning
    expect(done.warning).toContain('allowExternalLinks is not used');
    expect(done.warning).toContain('agent is not used');
    const skip = await post({ urls: [`${shop.origin}/hidden/*`], prompt: 'products', ignoreSitemap: true });
    expect(skip.status).toBe(400);
    expect(skip.body.error).toContain('ignoreSitemap is on');
  });

  test('ignoreInvalidURLs (default): invalidURLs reported, the rest read', async () => {
    const r = await post({ urls: ['http://exa mple/', shop.url('/p/2')], prompt: 'products' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, urlTrace: [], invalidURLs: ['http://exa mple/'] });
    const done = await waitEnd(r.body.id);
    expect(done.data.products).toEqual([{ name: 'Widget 2', price: 12 }]);
  });

  test('webhook: extract.started and extract.completed, signed with the team secret in both headers', async () => {
    hooks.length = 0;
    const r = await post({ urls: [shop.url('/p/3')], prompt: 'products', webhook: { url: `http://127.0.0.1:${receiver.port}/hook`, metadata: { n: 1 } } }, b.key);
    expect(r.status).toBe(200);
    await waitEnd(r.body.id, b.key);
    for (let i = 0; i < 100 && hooks.length < 2; i++) await Bun.sleep(100);
    expect(hooks.map((h) => h.type)).toEqual(['extract.started', 'extract.completed']);
    const secret = await teamWebhookSecret(t.running.services.db, b.team);
    for (const h of hooks) {
      expect(verifySignature(h.raw, h.signature, secret!)).toBe(true);
      expect(h.firecrawl).toBe(h.signature);
      expect(JSON.parse(h.raw)).toMatchObject({ id: r.body.id, metadata: { n: 1 } });
    }
  });

  test('cancel: a running extract ends cancelled; cancelling a finished one is a 409', async () => {
    const r = await post({ urls: [shop.url('/p/9')], prompt: 'products' }, b.key);
    for (let i = 0; i < 200 && !fake.requests.some((q) => JSON.stringify(q.body).includes('Widget 9')); i++) await Bun.sleep(50);
    const del = await fetch(`${t.base}/v2/extract/${r.body.id}`, { method: 'DELETE', headers: t.auth(b.key) });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ success: true, status: 'cancelled' });
    expect((await get(r.body.id, b.key)).body.status).toBe('cancelled');
    const done = await post({ urls: [shop.url('/p/1')], prompt: 'products' }, b.key);
    await waitEnd(done.body.id, b.key);
    expect((await fetch(`${t.base}/v2/extract/${done.body.id}`, { method: 'DELETE', headers: t.auth(b.key) })).status).toBe(409);
  });

  test('v1: POST /v1/extract and GET /v1/extract/{id}', async () => {
    const r = await post({ urls: [shop.url('/p/4')], prompt: 'products', scrapeOptions: { formats: ['markdown'], parsePDF: false } }, b.key, '/v1/extract');
    expect(r.status).toBe(200);
    const done = await waitEnd(r.body.id, b.key, '/v1/extract');
    expect(done.status).toBe('completed');
    expect(done.data.products).toEqual([{ name: 'Widget 4', price: 14 }]);
    expect(done.warning).toContain('scrapeOptions.formats is not used');
  });

  test('zero data retention: no URL stored, the data returned once', async () => {
    const r = await post({ urls: [shop.url('/p/5')], prompt: 'products', zeroDataRetention: true });
    expect(r.status).toBe(200);
    const first = await waitEnd(r.body.id);
    expect(first.data.products).toEqual([{ name: 'Widget 5', price: 15 }]);
    const second = (await get(r.body.id)).body;
    expect(second.status).toBe('completed');
    expect(second.data).toBeUndefined();
    expect(second.warning).toContain('returned once');
    const [row] = await t.running.services.db.query<{ url: string | null; options: string }>('select url, options::text from jobs where id = $1', [r.body.id]);
    expect(row.url).toBeNull();
    expect(row.options).not.toContain('/p/5');
    // Without the team's ZDR switch: refused.
    expect((await post({ urls: [shop.url('/p/5')], prompt: 'products', zeroDataRetention: true }, b.key)).status).toBe(400);
  });

  test('enableWebSearch: a prompt alone finds the page through the local index', async () => {
    const scraped = await t.post('/v2/scrape', { url: shop.url('/p/8') }, t.auth(b.key));
    expect(scraped.status).toBe(200);
    const r = await post({ prompt: 'Widget 8', enableWebSearch: true, showSources: true }, b.key);
    expect(r.status).toBe(200);
    const done = await waitEnd(r.body.id, b.key);
    expect(done.status).toBe('completed');
    expect(done.data.products).toContainEqual({ name: 'Widget 8', price: 18 });
    expect(done.sources['products[0]'][0]).toStartWith(shop.origin);
    // one page (1 + 4) and the search (2 per 10 results), which charged its own part
    expect(done.creditsUsed).toBe(7);
  });

  test('every page failing: status failed with the error, success true', async () => {
    const dead = `http://127.0.0.1:${freePort()}/gone`;
    const r = await post({ urls: [dead], prompt: 'products', scrapeOptions: { timeout: 5_000 } }, b.key);
    expect(r.status).toBe(200);
    const done = await waitEnd(r.body.id, b.key);
    expect(done).toMatchObject({ success: true, status: 'failed' });
    expect(typeof done.error).toBe('string');
    expect(done.creditsUsed).toBe(0);
  });
});

describe('the scheduler sweep', () => {
  test('ends a job nobody runs or reads past its timeout, and drops results past retention', async () => {
    const db = t.running.services.db;
    const lost = crypto.randomUUID();
    await db.query(
      `insert into jobs (id, team_id, kind, status, options, created_at) values ($1, $2, 'extract', 'processing', $3, now() - interval '10 minutes')`,
      [lost, b.team, { timeoutMs: 5_000, showSources: false }],
    );
    const done = await post({ urls: [shop.url('/p/6')], prompt: 'products' }, b.key);
    await waitEnd(done.body.id, b.key);
    await db.query(`update jobs set expires_at = now() - interval '1 second' where id = $1`, [done.body.id]);
    expect(await sweepExtracts(t.running.services)).toBeGreaterThanOrEqual(1);
    const [row] = await db.query<{ status: string; error: { code: string } }>('select status, error from jobs where id = $1', [lost]);
    expect(row.status).toBe('failed');
    expect(row.error.code).toBe('EXTRACT_TIMEOUT');
    const [expired] = await db.query<{ result: unknown }>('select result from jobs where id = $1', [done.body.id]);
    expect(expired.result).toBeNull();
    expect((await get(done.body.id, b.key)).body.error).toBe('Job expired');
  });
});
