/**
 * Team concurrency slots and rate limits (core/limits; compat.md §18.2), for the in-memory driver and
 * the Redis driver. Two Redis-backed instances stand for two processes sharing one Redis.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { MemoryTeamSlots, RedisTeamSlots, type TeamSlots } from '../../core/limits/concurrency.ts';
import { RateLimits } from '../../core/limits/rate-limit.ts';
import { openRedis, type RedisHandle } from '../../core/limits/redis.ts';
import { silentLogger } from '../../core/log.ts';
import { TrawlError } from '../../core/errors.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const prefix = `trawl-test-${crypto.randomUUID().slice(0, 8)}`;
const handles: RedisHandle[] = [];
function redis(): RedisHandle {
  const h = openRedis(REDIS_URL, silentLogger);
  handles.push(h);
  return h;
}

afterAll(async () => {
  const c = await handles[0]?.client();
  if (c) for (const key of await c.keys(`${prefix}*`)) await c.del(key);
  for (const h of handles) await h.close();
});

const drivers: [string, () => [TeamSlots, TeamSlots]][] = [
  ['memory', () => { const s = new MemoryTeamSlots(); return [s, s]; }],
  ['redis', () => [new RedisTeamSlots(redis(), prefix), new RedisTeamSlots(redis(), prefix)]],
];

for (const [name, make] of drivers) {
  describe(`${name} team slots`, () => {
    test('at most `limit` slots at once; a waiter gets the freed slot', async () => {
      const [a, b] = make();
      const team = `team-${crypto.randomUUID()}`;
      const s1 = await a.acquire(team, 2, { waitMs: 0, leaseMs: 60_000 });
      const s2 = await b.acquire(team, 2, { waitMs: 0, leaseMs: 60_000 });
      expect(s1?.queued).toBe(false);
      expect(s2).not.toBeNull();
      expect(await a.active(team)).toBe(2);
      expect(await b.acquire(team, 2, { waitMs: 50, leaseMs: 60_000 })).toBeNull();
      const waiting = b.acquire(team, 2, { waitMs: 5_000, leaseMs: 60_000 });
      await Bun.sleep(120);
      expect(await a.waiting(team)).toBe(1);
      await s1!.release();
      const s3 = await waiting;
      expect(s3).not.toBeNull();
      expect(s3!.queued).toBe(true);
      expect(s3!.waitedMs).toBeGreaterThanOrEqual(100);
      expect(await a.active(team)).toBe(2);
      expect(await a.waiting(team)).toBe(0);
      await s2!.release();
      await s3!.release();
      await s3!.release(); // idempotent
      expect(await b.active(team)).toBe(0);
      // Other teams are independent.
      expect(await a.acquire(`${team}-other`, 1, { waitMs: 0, leaseMs: 60_000 })).not.toBeNull();
    });

    test('never more than the limit under contention', async () => {
      const [a, b] = make();
      const team = `team-${crypto.randomUUID()}`;
      let running = 0;
      let peak = 0;
      const work = async (slots: TeamSlots) => {
        const slot = await slots.acquire(team, 3, { waitMs: 10_000, leaseMs: 60_000 });
        expect(slot).not.toBeNull();
        running++;
        peak = Math.max(peak, running);
        await Bun.sleep(15);
        running--;
        await slot!.release();
      };
      await Promise.all(Array.from({ length: 24 }, (_, i) => work(i % 2 ? a : b)));
      expect(peak).toBe(3);
      expect(await a.active(team)).toBe(0);
    });

    test('an aborted wait gives up', async () => {
      const [a] = make();
      const team = `team-${crypto.randomUUID()}`;
      const held = await a.acquire(team, 1, { waitMs: 0, leaseMs: 60_000 });
      const ctl = new AbortController();
      const started = Date.now();
      setTimeout(() => ctl.abort(), 50);
      expect(await a.acquire(team, 1, { waitMs: 120_000, leaseMs: 60_000, signal: ctl.signal })).toBeNull();
      expect(Date.now() - started).toBeLessThan(60_000); // far below the 120 s wait: the abort ended it
      await held!.release();
    });
  });
}

test('redis slots: an expired lease frees its slot (a crashed process)', async () => {
  const slots = new RedisTeamSlots(redis(), prefix);
  const team = `team-${crypto.randomUUID()}`;
  expect(await slots.acquire(team, 1, { waitMs: 0, leaseMs: 1_000 })).not.toBeNull(); // never released
  expect(await slots.acquire(team, 1, { waitMs: 0, leaseMs: 1_000 })).toBeNull();
  const later = await slots.acquire(team, 1, { waitMs: 3_000, leaseMs: 1_000 });
  expect(later).not.toBeNull();
});

describe('rate limits', () => {
  const bucket = (key: string, perMinute: number) => ({ family: 'team', key, perMinute, label: 'the scrape endpoints of this team' });

  test('memory: the (n+1)th request in a minute gets 429 with Retry-After', async () => {
    const rl = new RateLimits(prefix);
    for (let i = 0; i < 3; i++) await rl.consume([bucket('t1:scrape', 3)]);
    const err = await rl.consume([bucket('t1:scrape', 3)]).catch((e) => e);
    expect(err).toBeInstanceOf(TrawlError);
    expect(err.status).toBe(429);
    expect(err.message).toContain('at most 3 requests per minute for the scrape endpoints of this team');
    expect(Number(err.headers['Retry-After'])).toBeGreaterThanOrEqual(59);
    // Another key is unaffected.
    await rl.consume([bucket('t2:scrape', 3)]);
  });

  test('redis: two instances share the buckets', async () => {
    const a = new RateLimits(prefix, redis());
    const b = new RateLimits(prefix, redis());
    const key = `t-${crypto.randomUUID()}:scrape`;
    let ok = 0;
    let limited = 0;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).consume([bucket(key, 6)]).then(() => ok++, (e) => (e.status === 429 ? limited++ : Promise.reject(e)))),
    );
    expect(ok).toBe(6);
    expect(limited).toBe(4);
  });
});
