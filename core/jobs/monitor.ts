/**
 * The monitor worker: what a worker process registers to run monitor checks (core/monitor/runner.ts)
 * from the `monitor` queue. A check mostly waits for its batch scrape and crawl jobs, which the crawl
 * worker runs, so checks have their own queue and never hold crawl slots.
 */
import type { Services } from '../services.ts';
import { MONITOR_QUEUE, type CheckMessage } from '../monitor/checks.ts';
import { runCheck } from '../monitor/runner.ts';

/** Registers the monitor queue handler in this process. */
export async function startMonitorWorker(services: Services): Promise<void> {
  await services.queue.process<CheckMessage, null>(
    MONITOR_QUEUE,
    async (job, signal) => {
      await runCheck(services, job.data.checkId, signal);
      return null;
    },
    { concurrency: services.config.workerConcurrency },
  );
}
