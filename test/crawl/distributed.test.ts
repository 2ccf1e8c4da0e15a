/**
 * Distributed mode (issue 4, "Distributed"): PostgreSQL + Redis, one `api` process and two `worker`
 * processes of bin/trawl.ts share one crawl of the 1,169-page postgresql-doc-15 manual. Then the
 * fault test: during a second crawl one worker is killed with SIGKILL and Redis (no persistence) is
 * restarted, losing the queue; the crawl still completes with every page exactly once in the results.
 */
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { pgDocsInstalled, servePgDocs, type PgDocsSite } from '../fixtures/crawl-site/pg-docs.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { apiOf, expectWholeManual, startCrawl, waitDone, type Api } from './helpers.ts';

let cluster: Cluster;
let site: PgDocsSite;
let api: Api;

beforeAll(async () => {
  if (!pgDocsInstalled) return;
  site = servePgDocs();
  // The defaults, named because the fault test relies on them: a crawl keeps 10 pages in flight, a
  // worker runs at most 8 of them.
  cluster = await startCluster(2, { TRAWL_TEAM_CONCURRENCY: '10', TRAWL_WORKER_CONCURRENCY: '8' });
  api = apiOf({ base: cluster.base });
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
  site?.stop();
}, 60_000);

/** CPU seconds a process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe.skipIf(!pgDocsInstalled)('postgresql-doc-15, api + 2 workers', () => {
  test('two workers share one crawl; every page exactly once', async () => {
    const cpuBefore = cluster.workers.map((w) => cpuSeconds(w.pid));
    const started = Date.now();
    const id = await startCrawl(api, { url: `${site.origin}/index.html`, limit: 5000 });
    await waitDone(api, `/v2/crawl/${id}`, 600_000);
    const seconds = (Date.now() - started) / 1000;
    await expectWholeManual(api, id, site);
    for (const p of site.pages) expect(site.hits.get(`/${p}`)).toBe(1);
    const cpu = cluster.workers.map((w, i) => cpuSeconds(w.pid) - cpuBefore[i]);
    // both workers scraped a real share of the pages
    for (const c of cpu) expect(c).toBeGreaterThan(Math.max(...cpu) / 4);
    process.stdout.write(`[pg-docs distributed] ${site.pages.length} pages in ${seconds.toFixed(1)} s = ${(site.pages.length / seconds).toFixed(1)} pages/s; worker CPU s ${cpu.map((c) => c.toFixed(1)).join(', ')}\n`);
  }, 600_000);

  test('a worker killed with SIGKILL and Redis restarted mid-crawl: the crawl completes, no page lost or doubled', async () => {
    site.hits.clear();
    const id = await startCrawl(api, { url: `${site.origin}/index.html`, limit: 5000 });
    for (let i = 0; ; i++) {
      const s = (await api.get(`/v2/crawl/${id}?limit=1`)).body;
      if (s.completed >= 300) break;
      if (i > 3000) throw new Error('crawl did not progress');
      await Bun.sleep(100);
    }
    // Hold the site's responses until more pages are in flight than one worker runs: then both
    // workers hold claims, and the one killed has pages to lose.
    const sql = postgres(cluster.databaseUrl, { max: 1, onnotice: () => {} });
    onTestFinished(() => sql.end());
    const release = site.hold();
    try {
      for (let i = 0; ; i++) {
        const [{ active }] = await sql`select count(*)::int as active from crawl_urls where job_id = ${id} and status = 'active'`;
        if (active > 8) break;
        if (i > 300) throw new Error(`only ${active} pages in flight with the site held`);
        await Bun.sleep(100);
      }
      await cluster.killWorker(0);
    } finally {
      release();
    }
    await cluster.redis.restart();
    await waitDone(api, `/v2/crawl/${id}`, 600_000);
    await expectWholeManual(api, id, site);
    // Pages in flight on the killed worker are fetched again; nothing else is.
    const twice = site.pages.filter((p) => (site.hits.get(`/${p}`) ?? 0) > 1);
    for (const p of site.pages) expect(site.hits.get(`/${p}`) ?? 0).toBeGreaterThanOrEqual(1);
    expect(twice.length).toBeLessThanOrEqual(10);
    // The repair really happened: the killed worker's pages were taken over (second attempt).
    const [{ retried }] = await sql`select count(*)::int as retried from crawl_urls where job_id = ${id} and attempts > 1`;
    expect(retried).toBeGreaterThan(0);
    expect(retried).toBeLessThanOrEqual(10);
    process.stdout.write(`[pg-docs fault] ${retried} pages taken over, ${twice.length} fetched twice\n`);
    // The surviving worker takes new work from the restarted Redis.
    const batch = await api.post('/v2/batch/scrape', { urls: site.pages.slice(0, 5).map((p) => `${site.origin}/${p}`) });
    expect(batch.status).toBe(200);
    expect(await waitDone(api, `/v2/batch/scrape/${batch.body.id}`, 120_000)).toMatchObject({ status: 'completed', completed: 5 });
  }, 600_000);
});
