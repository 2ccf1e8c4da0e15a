/**
 * BullMQ: the outcome `waitFor` reads from Redis (core/queue/bullmq.ts `storedOutcome`). The job
 * used to be read first and its state after, so a job that finished between the two reads looked
 * completed with no result (a null scrape result, a 500 on the Postgres + Redis path). Here a job is
 * read while active, then finishes: the stale object has no value, the stored outcome has it. And
 * many short jobs waited for at once all answer their own value (none null).
 */
import { afterAll, expect, test } from 'bun:test';
import { Job, Queue, Worker } from 'bullmq';
import { createClient } from 'redis';
import { silentLogger } from '../../core/log.ts';
import { createBullmqQueue, storedOutcome } from '../../core/queue/bullmq.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const prefix = `trawl-outcome-${crypto.randomUUID().slice(0, 8)}`;
const clients: { close(): Promise<unknown> }[] = [];
/** A connected node-redis client (BullMQ takes one per Queue and Worker; ioredis is not installed). */
async function connection() {
  const c = createClient({ url: REDIS_URL });
  await c.connect();
  clients.push(c);
  return c as never;
}

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  const redis = createClient({ url: REDIS_URL });
  await redis.connect();
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) if (keys.length) await redis.del(keys);
  await redis.close();
});

test('a job read while active and finished after: the stored outcome holds its value', async () => {
  const queue = new Queue('outcome', { connection: await connection(), prefix });
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const worker = new Worker('outcome', async () => (await released, { document: 'the page' }), { connection: await connection(), prefix });
  try {
    const added = await queue.add('j', {}, { jobId: 'race-1' });
    while ((await queue.getJobState('race-1')) !== 'active') await Bun.sleep(20);
    const stale = (await Job.fromId(queue, added.id!))!;
    expect(await storedOutcome(queue, 'race-1')).toBeUndefined(); // still running
    release();
    while ((await queue.getJobState('race-1')) !== 'completed') await Bun.sleep(20);
    // The old probe's view: state completed, the object read before it has no value.
    expect(await stale.getState()).toBe('completed');
    expect(stale.returnvalue ?? null).toBeNull();
    expect(await storedOutcome(queue, 'race-1')).toEqual({ ok: true, value: { document: 'the page' } });
    expect((await storedOutcome(queue, 'gone'))?.ok).toBe(false);
  } finally {
    await worker.close();
    await queue.close();
  }
});

test('many short jobs waited for at once each answer their own value', async () => {
  const driver = await createBullmqQueue(REDIS_URL, silentLogger, { prefix });
  try {
    await driver.process<{ n: number }, { document: string }>('many', async (job) => ({ document: `page ${job.data.n}` }), { concurrency: 8 });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, n) => driver.addAndWait<{ n: number }, { document: string }>('many', 'j', { n }, {}, 60_000)),
    );
    expect(results.map((r) => r?.document)).toEqual(Array.from({ length: 200 }, (_, n) => `page ${n}`));
  } finally {
    await driver.close(1_000);
  }
});
