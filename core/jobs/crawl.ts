/**
 * The crawl worker (crawl pages, batch scrape pages and crawl kickoffs share the `crawl` queue): what a
 * worker process registers. Also starts this process's reconciler (core/crawl/reconciler.ts), which
 * repairs what a lost queue or a killed worker leaves behind, and stops it before the services close.
 */
import type { Services } from '../services.ts';
import { CRAWL_QUEUE, type KickoffMessage, type PageMessage } from '../crawl/enqueue.ts';
import { failKickoff, runKickoff } from '../crawl/kickoff.ts';
import { runPage } from '../crawl/page.ts';
import { startReconciler, wakeReconciler } from '../crawl/reconciler.ts';

/** Registers the crawl queue handler and the reconciler in this process. */
export async function startCrawlWorker(services: Services): Promise<void> {
  await services.queue.process<PageMessage | KickoffMessage, null>(
    CRAWL_QUEUE,
    async (job, signal) => {
      wakeReconciler(services); // crawl work: the repair pass goes back to its short cadence
      if (job.name === 'kickoff') {
        const { jobId } = job.data as KickoffMessage;
        await runKickoff(services, jobId, signal).catch(async (err) => {
          services.log.warn({ err, jobId }, 'crawl kickoff failed');
          await failKickoff(services, jobId, err);
        });
      } else {
        await runPage(services, job.data as PageMessage, signal);
      }
      return null;
    },
    { concurrency: services.config.workerConcurrency },
  );
  const stop = startReconciler(services);
  // Stop the reconciler before the database closes (Services has no shutdown hooks of its own).
  const close = services.close.bind(services);
  services.close = async () => {
    await stop();
    await close();
  };
}
