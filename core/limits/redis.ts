/**
 * The Redis connection of the accounts limits (rate limits and team concurrency slots) when
 * `REDIS_URL` is set. One node-redis client per process bundle, connected lazily; every key it
 * writes starts with `redisPrefix` so several deployments (or test runs) can share a server.
 */
import type * as Redis from 'redis';
import type { Logger } from '../log.ts';

function connectable(url: string) {
  // Required here, not imported: the embedded default (no REDIS_URL) never loads the Redis client.
  const { createClient } = require('redis') as typeof Redis;
  return createClient({ url, socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) } });
}

export type RedisClient = ReturnType<typeof connectable>;

export interface RedisHandle {
  /** The client, connected (waits for the first connection). */
  client(): Promise<RedisClient>;
  /** The client object before it is connected (for libraries that connect-check themselves). */
  readonly raw: RedisClient;
  close(): Promise<void>;
}

/** Opens a lazily connected client; connection errors are logged, commands fail until it reconnects. */
export function openRedis(url: string, log: Logger): RedisHandle {
  const raw = connectable(url);
  let lastError = 0;
  raw.on('error', (err: Error) => {
    if (Date.now() - lastError > 10_000) log.warn({ err: err.message }, 'redis (limits) error');
    lastError = Date.now();
  });
  let connecting: Promise<RedisClient> | undefined;
  let closed = false;
  return {
    raw,
    client() {
      connecting ??= raw.connect().then(() => raw);
      return connecting;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (connecting) await connecting.then(() => raw.close(), () => raw.destroy?.());
    },
  };
}
