/**
 * The limits of one process: rate limits and team concurrency slots, in memory or in Redis
 * (`REDIS_URL`). `limitsFor(services)` gives the same bundle for the same services; `closeLimits`
 * releases its Redis connection when the process stops.
 */
import type { ResolvedConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import { RateLimits } from './rate-limit.ts';
import { MemoryTeamSlots, RedisTeamSlots, type TeamSlots } from './concurrency.ts';
import { openRedis, type RedisHandle } from './redis.ts';

export type { Bucket } from './rate-limit.ts';
export type { Slot, TeamSlots } from './concurrency.ts';

export interface Limits {
  rate: RateLimits;
  slots: TeamSlots;
  /** `redis` when shared across processes, else `memory`. */
  kind: 'memory' | 'redis';
  close(): Promise<void>;
}

const bundles = new WeakMap<object, Limits>();

/** The limits of a services bundle (created on first use). */
export function limitsFor(services: { config: ResolvedConfig; log: Logger }): Limits {
  let limits = bundles.get(services);
  if (limits) return limits;
  const { redisUrl, redisPrefix } = services.config;
  let redis: RedisHandle | undefined;
  if (redisUrl) {
    redis = openRedis(redisUrl, services.log.child({ component: 'limits' }));
    redis.client().catch(() => {});
  }
  limits = {
    rate: new RateLimits(redisPrefix, redis, services.config.accounts.rateLimitWindowS),
    slots: redis ? new RedisTeamSlots(redis, redisPrefix) : new MemoryTeamSlots(),
    kind: redis ? 'redis' : 'memory',
    close: async () => {
      bundles.delete(services);
      await redis?.close();
    },
  };
  bundles.set(services, limits);
  return limits;
}

/** Closes the limits of a services bundle, if any were opened. */
export async function closeLimits(services: object): Promise<void> {
  await bundles.get(services)?.close();
}
