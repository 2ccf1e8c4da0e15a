/**
 * The crawl queue: messages that say "run frontier row X (enqueue number n)" or "start discovery of
 * crawl J". The database holds the state; a message lost with its queue (Redis restarted) is re-sent
 * by the reconciler, and a stale or duplicated one claims nothing.
 */
import type { Services } from '../services.ts';
import type { QueueItem } from '../store/crawl-urls.ts';

export const CRAWL_QUEUE = 'crawl';

export interface PageMessage {
  jobId: string;
  rowId: string;
  enqueue: number;
}

export interface KickoffMessage {
  jobId: string;
}

/** Adds frontier rows to the queue. Failures are logged: the reconciler re-sends what is missing. */
export async function enqueueItems(services: Pick<Services, 'queue' | 'log'>, items: QueueItem[]): Promise<void> {
  await Promise.all(
    items.map((item) =>
      services.queue
        .add<PageMessage>(CRAWL_QUEUE, 'page', { jobId: item.jobId, rowId: item.rowId, enqueue: item.enqueue }, {
          id: `${item.rowId}.${item.enqueue}`,
          delayMs: item.delayMs,
        })
        .catch((err) => services.log.warn({ err, jobId: item.jobId, rowId: item.rowId }, 'could not enqueue crawl page; the reconciler will retry')),
    ),
  );
}

/** Queues the discovery start of a crawl (sitemaps, robots.txt, start URL). */
export async function enqueueKickoff(services: Pick<Services, 'queue' | 'log'>, jobId: string): Promise<void> {
  await services.queue
    .add<KickoffMessage>(CRAWL_QUEUE, 'kickoff', { jobId }, { id: `${jobId}.kickoff` })
    .catch((err) => services.log.warn({ err, jobId }, 'could not enqueue crawl kickoff; the reconciler will retry'));
}
