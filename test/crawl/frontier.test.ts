/**
 * The crawl frontier in the database (core/store/crawl-urls.ts, crawls.ts) on both drivers: limit
 * and excess slots, breadth-first promotion within the concurrency window, claim tokens (a stale or
 * duplicated queue message claims nothing), finishing and cancelling.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { forEachDatabase, openTestDatabase, rejectionOf, type TestDatabase } from '../helpers/db.ts';
import { newId } from '../../core/ids.ts';
import { freeSlot, insertDiscovered, lockJob, promote, countByStatus, type Candidate } from '../../core/store/crawl-urls.ts';
import { claimUrl, completePageGrouped, completePages, stillOwned } from '../../core/store/crawl-claims.ts';
import { cancelJob, createJob, finishIfDone, getJob, jobCounters, jobErrors } from '../../core/store/crawls.ts';

const cand = (path: string, depth = 1): Candidate => ({ key: `//s${path}`, url: `http://s${path}`, sourceUrl: `http://s${path}`, depth, external: false });

forEachDatabase((kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  async function newCrawl(limit: number, concurrency: number) {
    const id = newId();
    await createJob(t.db, {
      id, teamId: 'team-a', kind: 'crawl', url: 'http://s/', publicOptions: {}, options: {}, concurrency, delayMs: 0, urlLimit: limit, zeroDataRetention: false,
    });
    return id;
  }

  test('limit fills slots with new URLs, the rest wait as excess; duplicates and blocked URLs get one row', async () => {
    const id = await newCrawl(3, 2);
    await t.db.transaction(async (tx) => {
      const job = (await lockJob(tx, id))!;
      const added = await insertDiscovered(tx, job, {
        accept: [cand('/a', 0), cand('/b'), cand('/a'), cand('/c'), cand('/d'), cand('/e')],
        robots: [{ key: '//s/private', url: 'http://s/private' }],
        skipped: [{ key: '//ext', url: 'http://ext/', code: 'EXTERNAL_LINK', error: 'external homepage' }],
      });
      expect(added).toBe(3);
      expect(await insertDiscovered(tx, job, { accept: [cand('/b'), cand('/f')], robots: [{ key: '//s/private', url: 'http://s/private' }], skipped: [] })).toBe(0);
    });
    expect(await countByStatus(t.db, id)).toEqual({ backlog: 3, excess: 3, robots: 1, skipped: 1 });
    const errors = await jobErrors(t.db, id);
    expect(errors.robotsBlocked).toEqual(['http://s/private']);
    expect(errors.errors.map((e) => [e.url, e.code])).toEqual([['http://ext/', 'EXTERNAL_LINK']]);
  });

  test('promotion is breadth first within the window; claims need the current enqueue number', async () => {
    const id = await newCrawl(10, 2);
    const items = await t.db.transaction(async (tx) => {
      const job = (await lockJob(tx, id))!;
      await insertDiscovered(tx, job, { accept: [cand('/deep', 3), cand('/root', 0), cand('/mid', 1)], robots: [], skipped: [] });
      return promote(tx, job);
    });
    expect(items.length).toBe(2);
    const rows = await t.db.query<{ id: string; url: string }>('select id, url from crawl_urls where job_id = $1 and status = $2 order by depth', [id, 'queued']);
    expect(rows.map((r) => r.url)).toEqual(['http://s/root', 'http://s/mid']);
    const item = items.find((i) => i.rowId === rows[0].id)!;
    expect(await claimUrl(t.db, item.rowId, item.enqueue + 1, 10_000)).toBeUndefined();
    const claims = await Promise.all([1, 2, 3].map(() => claimUrl(t.db, item.rowId, item.enqueue, 10_000)));
    const won = claims.filter(Boolean);
    expect(won.length).toBe(1);
    expect(await stillOwned(t.db, won[0]!)).toBe(true);
    expect(await stillOwned(t.db, { ...won[0]!, attempt: won[0]!.attempt + 1 })).toBe(false);
    // window full (1 active + 1 queued): nothing more is promoted
    expect(await t.db.transaction(async (tx) => promote(tx, (await lockJob(tx, id))!))).toEqual([]);
  });

  test('a failed page frees its slot for an excess URL; finishing waits for kickoff and pending rows', async () => {
    const id = await newCrawl(1, 1);
    await t.db.transaction(async (tx) => {
      const job = (await lockJob(tx, id))!;
      await insertDiscovered(tx, job, { accept: [cand('/one', 0), cand('/two', 1)], robots: [], skipped: [] });
      expect(await finishIfDone(tx, job)).toBeUndefined(); // kickoff pending
      await tx.query(`update crawl_urls set status = 'failed' where job_id = $1 and url_key = '//s/one'`, [id]);
      await freeSlot(tx, job);
      job.kickoff = 'done';
      expect(await finishIfDone(tx, job)).toBeUndefined(); // /two now in the backlog
      await tx.query(`update crawl_urls set status = 'done', seq = 1 where job_id = $1 and url_key = '//s/two'`, [id]);
      await tx.query(`update crawl_jobs set done_count = 1 where id = $1`, [id]);
      expect(await finishIfDone(tx, job)).toBe('completed');
    });
    const job = (await getJob(t.db, id))!;
    expect(job.status).toBe('completed');
    expect(job.expiresAt!.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
  });

  test('cancel: pending pages fail with SCRAPE_JOB_CANCELLED, backlog is dropped, a second cancel is a no-op', async () => {
    const id = await newCrawl(10, 1);
    await t.db.transaction(async (tx) => {
      const job = (await lockJob(tx, id))!;
      await insertDiscovered(tx, job, { accept: [cand('/x', 0), cand('/y', 1)], robots: [], skipped: [] });
      await promote(tx, job);
    });
    const ids = await cancelJob(t.db, id);
    expect(ids.length).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}\.1$/);
    expect(await countByStatus(t.db, id)).toEqual({ failed: 1, dropped: 1 });
    expect((await jobErrors(t.db, id)).errors[0].code).toBe('SCRAPE_JOB_CANCELLED');
    expect((await getJob(t.db, id))!.status).toBe('cancelled');
    expect(await cancelJob(t.db, id)).toEqual([]);
  });

  test('several pages of a crawl complete in one statement: order, lost claims, shared links, charges, chain', async () => {
    const id = await newCrawl(10, 3);
    await t.db.query(`insert into teams (id, name, credits, concurrency) values ('team-g', 'g', 100, 10) on conflict (id) do update set credits = 100`);
    const items = await t.db.transaction(async (tx) => {
      const job = (await lockJob(tx, id))!;
      await insertDiscovered(tx, job, { accept: [cand('/a', 0), cand('/b', 0), cand('/c', 0)], robots: [], skipped: [] });
      return promote(tx, job);
    });
    const claims = await Promise.all(items.map((i) => claimUrl(t.db, i.rowId, i.enqueue, 10_000)));
    const [a, b, c] = ['http://s/a', 'http://s/b', 'http://s/c'].map((u) => claims.find((x) => x!.url === u)!);
    // Another worker took /b over meanwhile: its completion here is lost.
    await t.db.query('update crawl_urls set attempts = attempts + 1 where id = $1', [b.id]);
    const page = (url: string, credits: number, discovered: Candidate[], hook?: string) => ({
      teamId: 'team-g', url, statusCode: 200, body: JSON.stringify({ markdown: url }), credits, discovered,
      hook: hook ? { id: newId(), event: 'crawl.page', url: 'http://127.0.0.1:9/hooks', headers: {}, body: hook } : undefined,
    });
    const done = await completePages(t.db, [
      { claim: a, page: page('http://s/a', 1, [cand('/d', 1), cand('/e', 2)], 'first'), chainLeaseMs: 10_000 },
      { claim: b, page: page('http://s/b', 5, [cand('/f', 1)], 'lost'), chainLeaseMs: 10_000 },
      { claim: c, page: page('http://s/c', 2, [cand('/e', 1), cand('/d', 1)], 'second'), chainLeaseMs: 10_000 },
    ]);
    expect(done.map((d) => d.status)).toEqual(['done', 'lost', 'done']);
    // Completion order follows the group's order; the lost page has no seq, document, charge or links.
    const rows = await t.db.query<{ url: string; status: string; seq: number | null; depth: number }>(
      'select url, status, seq, depth from crawl_urls where job_id = $1 order by url', [id]);
    expect(rows.map((r) => [r.url, r.status, r.seq, r.depth])).toEqual([
      ['http://s/a', 'done', 1, 0], ['http://s/b', 'active', null, 0], ['http://s/c', 'done', 2, 0],
      ['http://s/d', 'active', null, 1], ['http://s/e', 'active', null, 1], // claimed for the chain; /e at its smallest depth
    ]);
    expect(done[0].next!.url).not.toBe(done[2].next!.url);
    expect([done[0].next!.url, done[2].next!.url].sort()).toEqual(['http://s/d', 'http://s/e']);
    expect(done[1].next).toBeUndefined();
    const [{ credits }] = await t.db.query<{ credits: number }>(`select credits from teams where id = 'team-g'`);
    expect(credits).toBe(97);
    const [job] = await t.db.query<{ done_count: number; finished_count: number; credits_used: number }>(
      'select done_count, finished_count, credits_used from crawl_jobs where id = $1', [id]);
    expect(job).toEqual({ done_count: 2, finished_count: 2, credits_used: 3 });
    const docs = await t.db.query<{ url: string }>('select url from documents where job_id = $1 order by url', [id]);
    expect(docs.map((d) => d.url)).toEqual(['http://s/a', 'http://s/c']);
    const hooks = await t.db.query<{ body: string }>('select body from webhook_deliveries where job_id = $1 order by seq', [id]);
    expect(hooks.map((h) => h.body)).toEqual(['first', 'second']);
    // The same pages again: their claims are spent, so nothing is stored twice.
    const again = await completePages(t.db, [
      { claim: a, page: page('http://s/a', 1, []), chainLeaseMs: 0 },
      { claim: c, page: page('http://s/c', 2, []), chainLeaseMs: 0 },
    ]);
    expect(again.map((d) => d.status)).toEqual(['lost', 'lost']);
    expect((await t.db.query('select 1 from credit_ledger where job_id = $1', [id])).length).toBe(2);
  });

  test('status counters: completed is the crawl row\'s done count, the open rows are counted, none once terminal', async () => {
    const id = await newCrawl(10, 2);
    const items = await t.db.transaction(async (tx) => {
      const job = (await lockJob(tx, id))!;
      await insertDiscovered(tx, job, { accept: [cand('/a', 0), cand('/b', 0), cand('/c', 0)], robots: [{ key: '//s/r', url: 'http://s/r' }], skipped: [] });
      return promote(tx, job);
    });
    const [a] = await Promise.all(items.map((i) => claimUrl(t.db, i.rowId, i.enqueue, 10_000)));
    const body = JSON.stringify({ markdown: 'a' });
    await completePages(t.db, [{ claim: a!, page: { teamId: 'team-a', url: a!.url, statusCode: 200, body, credits: 0, discovered: [] }, chainLeaseMs: 0 }]);
    expect(await jobCounters(t.db, { id, status: 'scraping' })).toEqual({ total: 3, completed: 1, active: 1, queued: 1, backlog: 0, failed: 0, robotsBlocked: 1 });
    // The done rows themselves are not counted: the crawl row's counter is the number.
    await t.db.query('update crawl_jobs set done_count = 5 where id = $1', [id]);
    expect(await jobCounters(t.db, { id, status: 'completed' })).toEqual({ total: 5, completed: 5, active: 0, queued: 0, backlog: 0, failed: 0, robotsBlocked: 1 });
  });

  test('pages completed while one is being stored go together, each with its own outcome', async () => {
    const id = await newCrawl(10, 4);
    await t.db.query(`insert into teams (id, name, credits, concurrency) values ('team-g', 'g', 100, 10) on conflict (id) do update set credits = 100`);
    const items = await t.db.transaction(async (tx) => {
      const job = (await lockJob(tx, id))!;
      await insertDiscovered(tx, job, { accept: ['/p1', '/p2', '/p3', '/p4'].map((p) => cand(p, 0)), robots: [], skipped: [] });
      return promote(tx, job);
    });
    const claims = (await Promise.all(items.map((i) => claimUrl(t.db, i.rowId, i.enqueue, 10_000)))).map((x) => x!);
    const page = (url: string) => ({ teamId: 'team-g', url, statusCode: 200, body: '{}', credits: 1, discovered: [] });
    const done = await Promise.all(claims.map((claim) => completePageGrouped(t.db, claim, page(claim.url))));
    expect(done.map((d) => d.status)).toEqual(['done', 'done', 'done', 'done']);
    const seqs = await t.db.query<{ seq: number }>('select seq from crawl_urls where job_id = $1 order by seq', [id]);
    expect(seqs.map((s) => s.seq)).toEqual([1, 2, 3, 4]);
    // Nothing was left in the backlog: the last completion sees the crawl idle.
    expect(done.some((d) => d.advance.pending === 0)).toBe(true);
  });

  test('idempotency key: reuse within 24 h is a 409', async () => {
    const base = { teamId: 'team-b', kind: 'crawl' as const, url: 'http://s/', publicOptions: {}, options: {}, concurrency: 1, delayMs: 0, urlLimit: 1, zeroDataRetention: false };
    await createJob(t.db, { ...base, id: newId(), idempotencyKey: 'k1' });
    expect(await rejectionOf(createJob(t.db, { ...base, id: newId(), idempotencyKey: 'k1' }))).toMatchObject({ status: 409 });
    await createJob(t.db, { ...base, teamId: 'team-c', id: newId(), idempotencyKey: 'k1' });
    await t.db.query(`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'k1' and team_id = 'team-b'`);
    await createJob(t.db, { ...base, id: newId(), idempotencyKey: 'k1' });
  });
});

// The embedded database never gathers statistics (no autovacuum), so the planner takes any crawl for
// a couple of rows. The per-page functions must still touch only the rows they name, or each page
// costs O(pages of the crawl) (migration 0009_crawl_key_lookups). Counted with the table and index
// statistics of PGlite's one backend.
describe('pglite without planner statistics', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase('pglite');
  });
  afterAll(async () => {
    await t.close();
  });

  /** Rows of crawl_urls read so far, by sequential and index scans. */
  async function rowsRead(): Promise<number> {
    await t.db.query('select pg_stat_force_next_flush()');
    const [{ n }] = await t.db.query<{ n: string }>(
      `select (select coalesce(seq_tup_read, 0) from pg_stat_user_tables where relname = 'crawl_urls')
            + (select coalesce(sum(idx_tup_read), 0) from pg_stat_user_indexes where relname = 'crawl_urls') as n`,
    );
    return Number(n);
  }

  test('advancing the window and inserting links read a few rows of a 2,000-row crawl, not all of them', async () => {
    const id = newId();
    await createJob(t.db, { id, teamId: 'team-s', kind: 'crawl', url: 'http://s/', publicOptions: {}, options: {}, concurrency: 4, delayMs: 0, urlLimit: 5000, zeroDataRetention: false });
    await t.db.transaction(async (tx) => {
      const job = (await lockJob(tx, id))!;
      await insertDiscovered(tx, job, { accept: Array.from({ length: 2000 }, (_, i) => cand(`/p${i}`)), robots: [], skipped: [] });
    });
    const before = await rowsRead();
    await t.db.transaction(async (tx) => {
      const job = (await lockJob(tx, id))!;
      expect((await promote(tx, job)).length).toBe(4);
      // Two known URLs (one at a smaller depth) and one new one.
      expect(await insertDiscovered(tx, job, { accept: [cand('/p10', 0), cand('/p1500'), cand('/new')], robots: [], skipped: [] })).toBe(1);
    });
    const read = (await rowsRead()) - before;
    expect(read).toBeGreaterThan(0); // the statistics do count
    expect(read).toBeLessThan(100);
    expect(await countByStatus(t.db, id)).toEqual({ backlog: 1997, queued: 4 });
    const [{ depth }] = await t.db.query<{ depth: number }>(`select depth from crawl_urls where job_id = $1 and url = 'http://s/p10'`, [id]);
    expect(depth).toBe(0);
  });
});
