/**
 * Scrape auto-resume across processes (compat.md §4; issue 25 item 2): an `api` and a `worker` process
 * sharing PostgreSQL and Redis (BullMQ). The 408 `processing_continues` is answered by the API while
 * the worker goes on; the identical repeat finds the job through the `scrape_resumes` table and the
 * result through the queue, and the site is fetched once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startCluster, type Cluster } from '../crawl/cluster.ts';
import { startSite, type Site } from '../scrape-options/site.ts';

const hasRedis = Bun.which('redis-server') !== null;
let cluster: Cluster;
let site: Site;

beforeAll(async () => {
  site = startSite();
  if (hasRedis) cluster = await startCluster(1);
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
  site?.stop();
}, 60_000);

const post = async (body: unknown) => {
  const res = await fetch(`${cluster.base}/v2/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};

describe.skipIf(!hasRedis)('api + worker', () => {
  test('408 processing_continues, then the repeat joins the job on the worker', async () => {
    const body = { url: site.url('/slow?ms=5000&resume=cluster'), timeout: 4000, maxAge: 0 };
    const first = await post(body);
    expect(first.status).toBe(408);
    expect(first.body.details).toMatchObject({ state: 'processing_continues' });
    expect(first.headers.get('retry-after')).toBeTruthy();
    await Bun.sleep(1500);
    const again = await post(body);
    expect(again.status).toBe(200);
    expect(again.body.data.markdown).toContain('The slow page finally answered.');
    expect(site.count('/slow?ms=5000&resume=cluster')).toBe(1);
  }, 60_000);
});
