/**
 * The extract worker (issue 19 scope 3): extracts are jobs on the `extract` queue, so they run on
 * workers in distributed mode. One try per job (`maxAttempts` 1): the handler ends the job row
 * itself, failures included (core/extract/run.ts). A worker that dies mid-extract leaves the job to
 * the queue's interruption rule (BullMQ's stalled check, the in-process queue's restart): it runs
 * again elsewhere, or fails with JOB_INTERRUPTED, which a status read records
 * (core/extract/status.ts). Zero data retention: the queue forgets the job (its payload holds the
 * URLs and prompt) as soon as it ends.
 */
import type { Services } from '../services.ts';
import { runExtract, type ExtractJobData } from '../extract/run.ts';

export const EXTRACT_QUEUE = 'extract';

/** Queues an extract (its row must exist: core/extract/store.ts createExtractJob). */
export async function enqueueExtract(services: Services, data: ExtractJobData): Promise<void> {
  await services.queue.add(EXTRACT_QUEUE, 'extract', data, { id: data.extractId, maxAttempts: 1 });
}

/** Registers the extract handler on the queue in this process. */
export async function startExtractWorker(services: Services): Promise<void> {
  await services.queue.process<ExtractJobData, null>(
    EXTRACT_QUEUE,
    async (job, signal) => {
      await runExtract(services, job.data, signal);
      if (job.data.request.scrape.zeroDataRetention) {
        // After this handler returns the driver stores the (empty) result; forget it shortly after.
        setTimeout(() => void services.queue.forget(job.id).catch(() => undefined), 1_000).unref?.();
      }
      return null;
    },
    { concurrency: services.config.workerConcurrency },
  );
}
