/**
 * `auditMetadata` and `GET /v2/team/activity` (issue 17): scrapes, maps and crawls of a team are
 * listed with kind, status, credits, URL and auditMetadata; zero data retention and lockdown work
 * without a URL; pages through `next`; another team sees nothing of it; keyless callers get 401; a
 * key restricted to the scrape endpoints still reads it; bad paging input and a bad auditMetadata
 * answer 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startAccountsTrawl, type AccountsTrawl } from '../accounts/helpers.ts';

setDefaultTimeout(60_000);

const PAGE = '<html><head><title>Audit</title></head><body><main><p>Plain page for the activity list.</p></main></body></html>';
let site: FixtureSite;
let trawl: AccountsTrawl;
let a: { key: string; team: string };
let b: { key: string; team: string };

beforeAll(async () => {
  site = serveFixtures({ '/page': PAGE, '/secret-path': PAGE });
  trawl = await startAccountsTrawl();
  a = await trawl.key({ zdr: true });
  b = await trawl.key();
}, 120_000);
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
}, 60_000);

const activity = async (key: string, query = '') => trawl.get(`/v2/team/activity${query}`, trawl.auth(key));

describe('team activity', () => {
  test('scrapes, a map and a crawl are listed with status, credits, URL and auditMetadata', async () => {
    const s = await trawl.post('/v2/scrape', { url: site.url('/page'), auditMetadata: { username: 'alice' } }, trawl.auth(a.key));
    expect(s.status).toBe(200);
    const m = await trawl.post('/v2/map', { url: site.url('/page'), auditMetadata: { username: 'bob' } }, trawl.auth(a.key));
    expect(m.status).toBe(200);
    const c = await trawl.post('/v2/crawl', { url: site.url('/page'), limit: 1, auditMetadata: { username: 'carol' } }, trawl.auth(a.key));
    expect(c.status).toBe(200);
    let crawl: any;
    for (let i = 0; i < 120; i++) {
      crawl = (await activity(a.key)).body.data.find((x: any) => x.id === c.body.id);
      if (crawl?.status === 'completed') break;
      await Bun.sleep(250);
    }
    expect(crawl).toMatchObject({ kind: 'crawl', status: 'completed', url: site.url('/page'), auditMetadata: { username: 'carol' } });
    expect(crawl.creditsUsed).toBeGreaterThanOrEqual(1);
    const { body } = await activity(a.key);
    expect(body.success).toBe(true);
    const scrape = body.data.find((x: any) => x.id === s.body.data.metadata.scrapeId);
    expect(scrape).toMatchObject({ kind: 'scrape', status: 'completed', creditsUsed: 1, url: site.url('/page'), zeroDataRetention: false, auditMetadata: { username: 'alice' } });
    expect(Date.parse(scrape.createdAt)).toBeGreaterThan(0);
    expect(body.data.find((x: any) => x.id === m.body.id)).toMatchObject({ kind: 'map', status: 'completed', creditsUsed: 1, auditMetadata: { username: 'bob' } });
  });

  test('zero data retention and lockdown work is listed without its URL', async () => {
    const z = await trawl.post('/v2/scrape', { url: site.url('/secret-path'), zeroDataRetention: true, auditMetadata: { username: 'zed' } }, trawl.auth(a.key));
    expect(z.status).toBe(200);
    const l = await trawl.post('/v2/scrape', { url: site.url('/secret-path?lockdown'), lockdown: true }, trawl.auth(a.key));
    expect(l.status).toBe(404); // a cache-only miss
    const res = await activity(a.key);
    expect(res.text).not.toContain('secret-path');
    const item = res.body.data.find((x: any) => x.auditMetadata?.username === 'zed');
    expect(item).toMatchObject({ kind: 'scrape', status: 'completed', zeroDataRetention: true });
    expect(item.url).toBeUndefined();
    expect(res.body.data.some((x: any) => x.status === 'failed' && x.zeroDataRetention && x.url === undefined)).toBe(true);
  });

  test('pages through next without repeats and ends without next', async () => {
    const all = (await activity(a.key)).body.data.map((x: any) => x.id);
    expect(all.length).toBeGreaterThanOrEqual(4);
    const seen: string[] = [];
    let res = await activity(a.key, '?limit=2');
    for (let hops = 0; hops < 10; hops++) {
      seen.push(...res.body.data.map((x: any) => x.id));
      if (!res.body.next) break;
      expect(res.body.next.startsWith('http')).toBe(true);
      res = await trawl.get(res.body.next.slice(trawl.base.length), trawl.auth(a.key));
    }
    expect(res.body.next).toBeUndefined();
    expect(seen).toEqual(all);
  });

  test('another team sees none of it; keyless callers get 401; a restricted key reads its own team', async () => {
    const other = await activity(b.key);
    expect(other.status).toBe(200);
    expect(other.body.data).toEqual([]);
    const keyless = await trawl.get('/v2/team/activity');
    expect(keyless.status).toBe(401);
    const restricted = await trawl.key({ team: a.team, endpoints: ['scrape'] });
    const mine = await activity(restricted.key);
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBeGreaterThan(0);
  });

  test('bad input answers 400 naming the field', async () => {
    expect((await activity(a.key, '?limit=0')).text).toContain('limit');
    expect((await activity(a.key, '?limit=0')).status).toBe(400);
    const cursor = await activity(a.key, '?cursor=nope');
    expect(cursor.status).toBe(400);
    expect(cursor.text).toContain('cursor');
    const audit = await trawl.post('/v2/scrape', { url: site.url('/page'), auditMetadata: { user: 'x' } }, trawl.auth(a.key));
    expect(audit.status).toBe(400);
    expect(audit.text).toContain('auditMetadata');
  });
});
