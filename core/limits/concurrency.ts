/**
 * Team concurrency slots (compat.md §18.2): a counting semaphore per team that every scrape takes a
 * slot of while it runs (single scrapes, crawl pages and batch pages alike), so a team never runs
 * more scrapes at once than its `concurrency`. In memory for the embedded single process; in Redis
 * (a sorted set of leases per team, taken with a Lua script) when `REDIS_URL` is set, shared by every
 * process. Leases expire, so a process that dies holding a slot frees it after `leaseMs`.
 */
import { newId } from '../ids.ts';
import type { RedisHandle } from './redis.ts';

/** A held slot. */
export interface Slot {
  /** How long the caller waited for it, ms. */
  waitedMs: number;
  /** Whether the limit was reached when the caller asked (it had to wait). */
  queued: boolean;
  /** Frees the slot (idempotent). */
  release(): Promise<void>;
}

export interface AcquireOptions {
  /** Longest wait for a slot, ms; null is returned after it. */
  waitMs: number;
  /** Redis only: the lease lasts this long unless released (crash safety), ms. */
  leaseMs: number;
  signal?: AbortSignal;
}

export interface TeamSlots {
  /** Takes a slot of `teamId` whose limit is `limit`; null when none freed up within `waitMs`. */
  acquire(teamId: string, limit: number, opts: AcquireOptions): Promise<Slot | null>;
  /** Slots of the team in use now. */
  active(teamId: string): Promise<number>;
  /** Scrapes of the team waiting for a slot now. */
  waiting(teamId: string): Promise<number>;
}

interface Waiter {
  limit: number;
  grant: () => void;
}

/** Slots of this process only (embedded mode: one process runs everything). */
export class MemoryTeamSlots implements TeamSlots {
  private readonly teams = new Map<string, { active: number; waiters: Waiter[] }>();

  private team(id: string) {
    let t = this.teams.get(id);
    if (!t) this.teams.set(id, (t = { active: 0, waiters: [] }));
    return t;
  }

  private wake(id: string): void {
    const t = this.team(id);
    while (t.waiters.length && t.active < t.waiters[0].limit) {
      t.active++;
      t.waiters.shift()!.grant();
    }
    if (t.active === 0 && t.waiters.length === 0) this.teams.delete(id);
  }

  async acquire(teamId: string, limit: number, opts: AcquireOptions): Promise<Slot | null> {
    const started = Date.now();
    const t = this.team(teamId);
    const slot = (queued: boolean): Slot => {
      let released = false;
      return {
        waitedMs: Date.now() - started,
        queued,
        release: async () => {
          if (released) return;
          released = true;
          this.team(teamId).active--;
          this.wake(teamId);
        },
      };
    };
    if (t.waiters.length === 0 && t.active < limit) {
      t.active++;
      return slot(false);
    }
    return new Promise<Slot | null>((resolve) => {
      const giveUp = () => {
        const i = t.waiters.indexOf(waiter);
        if (i >= 0) t.waiters.splice(i, 1);
        clearTimeout(timer);
        resolve(null);
        this.wake(teamId);
      };
      const waiter: Waiter = {
        limit,
        grant: () => {
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', giveUp);
          resolve(slot(true));
        },
      };
      const timer = setTimeout(giveUp, Math.max(0, opts.waitMs));
      opts.signal?.addEventListener('abort', giveUp, { once: true });
      t.waiters.push(waiter);
    });
  }

  async active(teamId: string): Promise<number> {
    return this.teams.get(teamId)?.active ?? 0;
  }

  async waiting(teamId: string): Promise<number> {
    return this.teams.get(teamId)?.waiters.length ?? 0;
  }
}

/** KEYS[1] leases; ARGV: limit, holder, leaseMs. Returns 1 when the lease was taken. */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) + 60000)
  return 1
end
return 0`;

/** KEYS[1] a sorted set scored by expiry; ARGV[1] 'count' or a member to add with ARGV[2] ms to live. */
const LIVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[1] ~= 'count' then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 60000)
end
return redis.call('ZCARD', KEYS[1])`;

/** Slots shared by every process through Redis. Waiters poll (25 ms doubling to 200 ms). */
export class RedisTeamSlots implements TeamSlots {
  constructor(
    private readonly redis: RedisHandle,
    private readonly prefix: string,
  ) {}

  private leasesKey = (teamId: string) => `${this.prefix}::acct:slots:${teamId}`;
  private waitersKey = (teamId: string) => `${this.prefix}::acct:waiting:${teamId}`;

  async acquire(teamId: string, limit: number, opts: AcquireOptions): Promise<Slot | null> {
    const c = await this.redis.client();
    const started = Date.now();
    const holder = newId();
    const take = async () =>
      Number(await c.eval(ACQUIRE, { keys: [this.leasesKey(teamId)], arguments: [String(limit), holder, String(Math.max(1000, opts.leaseMs))] })) === 1;
    let got = await take();
    const queued = !got;
    let pause = 25;
    while (!got && Date.now() - started < opts.waitMs && !opts.signal?.aborted) {
      const left = opts.waitMs - (Date.now() - started);
      await c.eval(LIVE, { keys: [this.waitersKey(teamId)], arguments: [holder, String(Math.min(left, 5_000) + 1_000)] });
      await Bun.sleep(Math.min(pause, Math.max(1, left)));
      pause = Math.min(pause * 2, 200);
      got = await take();
    }
    await c.zRem(this.waitersKey(teamId), holder).catch(() => {});
    if (!got) return null;
    let released = false;
    return {
      waitedMs: Date.now() - started,
      queued,
      release: async () => {
        if (released) return;
        released = true;
        await c.zRem(this.leasesKey(teamId), holder);
      },
    };
  }

  private async live(key: string): Promise<number> {
    const c = await this.redis.client();
    return Number(await c.eval(LIVE, { keys: [key], arguments: ['count', '0'] }));
  }

  active(teamId: string): Promise<number> {
    return this.live(this.leasesKey(teamId));
  }

  waiting(teamId: string): Promise<number> {
    return this.live(this.waitersKey(teamId));
  }
}
