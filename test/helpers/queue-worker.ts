/**
 * A BullMQ worker in its own process, for the stalled-job test in test/contracts/queue.test.ts. Its
 * handler prints `started <jobId>` and then never finishes, so the test can SIGKILL it mid-job.
 * Usage: bun test/helpers/queue-worker.ts '{"redisUrl":..,"prefix":..,"queue":..,"lockDurationMs":..}'
 */
import { silentLogger } from '../../core/log.ts';
import { createBullmqQueue } from '../../core/queue/bullmq.ts';

const args = JSON.parse(process.argv[2] ?? '{}') as { redisUrl: string; prefix: string; queue: string; lockDurationMs: number };
const queue = await createBullmqQueue(args.redisUrl, silentLogger, {
  prefix: args.prefix,
  lockDurationMs: args.lockDurationMs,
  stalledIntervalMs: args.lockDurationMs,
});
await queue.process(
  args.queue,
  async (job) => {
    process.stdout.write(`started ${job.id}\n`);
    await new Promise(() => {});
  },
  { concurrency: 1 },
);
process.stdout.write('ready\n');
