/**
 * The status document of compat.md §8 over synthetic stored pages: the 10 MB page cap (at least one
 * document), `limit` paging with absolute `next` kept while documents remain and on every running
 * response, `?skip=<total>` on a completed job, the ~1 s hold of an empty page of a running job, and
 * the counters.
 */
import { afterAll, beforeAll, setDefaultTimeout, expect, test } from 'bun:test';
import { openTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { newId } from '../../core/ids.ts';
import { createJob, getJob } from '../../core/store/crawls.ts';
import { statusBody, MAX_PAGE_BYTES } from '../../core/crawl/status.ts';

setDefaultTimeout(60_000);

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase('pglite');
});
afterAll(async () => {
  await t.close();
});

async function jobWithDocs(sizes: number[]): Promise<string> {
  const id = newId();
  await createJob(t.db, { id, teamId: 't', kind: 'batch_scrape', url: 'http://s/', publicOptions: {}, options: {}, concurrency: 1, delayMs: 0, urlLimit: 1e9, zeroDataRetention: false });
  for (const [i, size] of sizes.entries()) await addDoc(id, i + 1, size);
  return id;
}

async function addDoc(jobId: string, seq: number, size: number): Promise<void> {
  const docId = newId();
  const body = JSON.stringify({ markdown: 'x'.repeat(size), metadata: { scrapeId: docId, n: seq } });
  await t.db.query(`insert into crawl_urls (job_id, url_key, id, url, source_url, status, seq) values ($1, $2, $3, 'http://s/', 'http://s/', 'done', $4)`, [jobId, String(seq), docId, seq]);
  await t.db.query(`insert into documents (id, job_id, team_id, url, source_url, status_code, body, size_bytes) values ($1, $2, 't', 'http://s/', 'http://s/', 200, $3, $4)`, [docId, jobId, body, body.length]);
  await t.db.query('update crawl_jobs set done_count = $2 where id = $1', [jobId, seq]);
}

const self = (id: string) => `http://api.test/v2/batch/scrape/${id}`;
const read = async (id: string, skip = 0, limit?: number) => JSON.parse(await statusBody(t.db, (await getJob(t.db, id))!, { skip, limit, selfUrl: self(id) }));

test('a page holds at most 10 MB of documents, at least one; next continues', async () => {
  const id = await jobWithDocs([4_000_000, 4_000_000, 4_000_000, 12_000_000, 10]);
  await t.db.query(`update jobs set status = 'completed', completed_at = now() where id = $1`, [id]);
  const p1 = await read(id);
  expect(p1.data.map((d: any) => d.metadata.n)).toEqual([1, 2]);
  expect(p1.next).toBe(`${self(id)}?skip=2`);
  const p2 = await read(id, 2);
  expect(p2.data.map((d: any) => d.metadata.n)).toEqual([3]);
  const p3 = await read(id, 3);
  expect(p3.data.map((d: any) => d.metadata.n)).toEqual([4]); // one document over the cap still comes alone
  expect(p3.next).toBe(`${self(id)}?skip=4`);
  const p4 = await read(id, 4);
  expect(p4.data.map((d: any) => d.metadata.n)).toEqual([5]);
  expect(p4.next).toBeUndefined();
  expect(MAX_PAGE_BYTES).toBe(10 * 1024 * 1024);
});

test('limit paging on a completed job: ceil(completed/limit) hops; skip=total is empty without next', async () => {
  const id = await jobWithDocs([10, 10, 10, 10, 10]);
  await t.db.query(`update jobs set status = 'completed', completed_at = now(), expires_at = now() + interval '1 day' where id = $1`, [id]);
  let url: string | undefined = `${self(id)}?limit=2`;
  const seen: number[] = [];
  let hops = 0;
  while (url) {
    const u = new URL(url);
    const page = await read(id, Number(u.searchParams.get('skip') ?? 0), Number(u.searchParams.get('limit')));
    seen.push(...page.data.map((d: any) => d.metadata.n));
    url = page.next;
    hops++;
    if (url) expect(url).toContain('limit=2');
  }
  expect(seen).toEqual([1, 2, 3, 4, 5]);
  expect(hops).toBe(3);
  const end = await read(id, 5);
  expect(end.data).toEqual([]);
  expect('next' in end).toBe(false);
  expect(end).toMatchObject({ success: true, status: 'completed', completed: 5, total: 5, active: 0, queued: 0, backlog: 0 });
  expect(typeof end.completedAt).toBe('string');
  expect(typeof end.expiresAt).toBe('string');
});

test('a running job always has next; an empty page is held ~1 s and returns a document that arrives meanwhile', async () => {
  const id = await jobWithDocs([10]);
  const start = Date.now();
  const empty = await read(id, 1);
  expect(Date.now() - start).toBeGreaterThanOrEqual(900);
  expect(empty.data).toEqual([]);
  expect(empty.next).toBe(`${self(id)}?skip=1`);
  expect(empty.status).toBe('scraping');
  const pending = read(id, 1);
  await Bun.sleep(300);
  await addDoc(id, 2, 10);
  const got = await pending;
  expect(got.data.map((d: any) => d.metadata.n)).toEqual([2]);
  expect(got.next).toBe(`${self(id)}?skip=2`);
});
