/**
 * Child process of queue-interrupted.test.ts: opens a queue driver, adds job `crash-1` (a no-op when
 * it exists) and processes it with a handler that kills this process, as a job that crashes its
 * worker would. Prints `RAN` when the handler starts, and `FAILED <code>` or `DONE` when waiting for
 * the job ends without the handler running.
 * argv: <memory|bullmq> <DATABASE_URL> <REDIS_URL> <prefix>
 */
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { openDatabase } from '../../core/db/client.ts';
import { createMemoryQueue } from '../../core/queue/memory.ts';
import { createBullmqQueue } from '../../core/queue/bullmq.ts';
import { TrawlError } from '../../core/errors.ts';

const [kind, databaseUrl, redisUrl, prefix] = process.argv.slice(2);
const config = loadConfig({ DATABASE_URL: databaseUrl, TRAWL_DATA_DIR: '/tmp', TRAWL_LOG_LEVEL: 'silent' });
const db = kind === 'memory' ? await openDatabase(config, silentLogger) : undefined;
const queue =
  kind === 'memory'
    ? await createMemoryQueue(db!, silentLogger, { pollMs: 200 })
    : await createBullmqQueue(redisUrl, silentLogger, { prefix, lockDurationMs: 1_000, stalledIntervalMs: 500, pollMs: 200 });
await queue.add('crashy', 'job', {}, { id: 'crash-1' });
await queue.process(
  'crashy',
  async () => {
    process.stdout.write('RAN\n');
    process.exit(3);
  },
  { concurrency: 1 },
);
try {
  await queue.waitFor('crash-1', 30_000);
  process.stdout.write('DONE\n');
} catch (e) {
  process.stdout.write(`FAILED ${TrawlError.wrap(e).code} ${TrawlError.wrap(e).message}\n`);
}
await queue.close(1_000);
await db?.close();
process.exit(0);
