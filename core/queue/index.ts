/**
 * Picks the queue driver: BullMQ on Redis when `REDIS_URL` is set (separate api and worker processes
 * possible), else the in-process driver persisting jobs in the database.
 */
import type { ResolvedConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { BullmqQueueOptions } from './bullmq.ts';
import { createMemoryQueue, type MemoryQueueOptions } from './memory.ts';
import type { QueueDriver } from './types.ts';

export type { QueueDriver, QueueJob, JobOptions, JobHandler, QueueCounts } from './types.ts';
import { instrumentQueue } from '../metrics/index.ts';
export { isWaitTimeout } from './shared.ts';

/**
 * Opens the queue for this process.
 * @param options driver tuning (tests use short lock durations and their own prefix)
 * @throws when Redis cannot be reached (BullMQ) or the database fails (memory)
 */
export function openQueue(
  config: ResolvedConfig,
  db: Database,
  log: Logger,
  options: BullmqQueueOptions & MemoryQueueOptions = {},
): Promise<QueueDriver> {
  // BullMQ and the Redis client load only when used (~30 ms of start-up for the embedded default).
  const opened = config.redisUrl
    ? import('./bullmq.ts').then(({ createBullmqQueue }) => createBullmqQueue(config.redisUrl!, log, { prefix: config.redisPrefix, ...options }))
    : createMemoryQueue(db, log, options);
  return opened.then(instrumentQueue);
}
