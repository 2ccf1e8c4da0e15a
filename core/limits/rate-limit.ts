/**
 * Rate limits (compat.md §18.2): per-minute buckets, one per team and endpoint group, one per API key
 * and endpoint group, a larger one for status reads, and per-IP buckets for keyless callers. Built on
 * rate-limiter-flexible: in memory for the embedded single process, in Redis when `REDIS_URL` is set
 * so every `api` process shares the same buckets. Over a bucket -> 429 with `Retry-After`.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TrawlError } from '../errors.ts';
import type { RedisHandle } from './redis.ts';

/** One bucket a request takes a point from. */
export interface Bucket {
  /** Bucket family (`team`, `key`, `ip`, `status` ...): families have separate counters. */
  family: string;
  /** Who and what is counted, e.g. `<teamId>:scrape`. */
  key: string;
  /** Requests allowed per minute. */
  perMinute: number;
  /** What the 429 message says is limited, e.g. `the scrape endpoints of this team`. */
  label: string;
}

export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  /** The first connection to Redis, waited for at most 2 s (then the insurance limiter counts). */
  private ready?: Promise<unknown>;

  /**
   * @param prefix key prefix of every counter (`redisPrefix`)
   * @param redis  shared counters in Redis; undefined = this process only
   * @param windowS the window every bucket counts in, s (default 60: `perMinute` is per minute;
   *   TRAWL_RATE_LIMIT_WINDOW_S, for tests that wait a window out)
   */
  constructor(
    private readonly prefix: string,
    private readonly redis?: RedisHandle,
    private readonly windowS = 60,
  ) {}

  private limiter(family: string, points: number): RateLimiterAbstract {
    const id = `${family}:${points}`;
    let limiter = this.limiters.get(id);
    if (limiter) return limiter;
    const keyPrefix = `${this.prefix}::acct:rl:${family}:${points}`;
    const memory = new RateLimiterMemory({ points, duration: this.windowS, keyPrefix });
    limiter = this.redis
      ? new RateLimiterRedis({
          storeClient: this.redis.raw,
          useRedisPackage: true,
          points,
          duration: this.windowS,
          keyPrefix,
          // Redis unreachable: count in this process rather than refusing every request.
          insuranceLimiter: memory,
          rejectIfRedisNotReady: true,
        })
      : memory;
    this.limiters.set(id, limiter);
    return limiter;
  }

  /**
   * Takes one point from each bucket, in order; stops at the first full one.
   * @throws TrawlError RATE_LIMITED (429) with `Retry-After` (seconds) naming the limit that was hit
   */
  async consume(buckets: Bucket[]): Promise<void> {
    if (this.redis) {
      this.ready ??= Promise.race([this.redis.client().catch(() => undefined), Bun.sleep(2_000)]);
      await this.ready;
    }
    for (const b of buckets) {
      try {
        await this.limiter(b.family, b.perMinute).consume(b.key, 1);
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        const retryAfter = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
        throw new TrawlError(
          'RATE_LIMITED',
          `Rate limit exceeded: at most ${b.perMinute} requests per ${this.windowS === 60 ? 'minute' : `${this.windowS} s`} for ${b.label}. Retry after ${retryAfter} s.`,
          { headers: { 'Retry-After': String(retryAfter), 'X-RateLimit-Limit': String(b.perMinute), 'X-RateLimit-Remaining': '0' } },
        );
      }
    }
  }
}
