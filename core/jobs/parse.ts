/**
 * The parse job: what a worker does with one uploaded file (`POST /v2/parse`, compat.md §14).
 *
 * Transport of the upload: the API stores the file in the blob store (core/blobs.ts) with a short
 * expiry and queues only its key, never the bytes. Queue payloads stay small (a 50 MB file would be
 * ~67 MB of base64 in Redis, kept there with the finished job), and the blob store is already the
 * place any worker can read from: on disk in the single-process default, in the database once
 * `DATABASE_URL` is set (distributed mode). The worker reads the file and deletes it at once; the
 * API deletes it too when it stops waiting, and the expiry (the parse timeout plus a margin) is the
 * backstop the blob sweep honours. The key is 128 random bits and is never shown to anyone.
 *
 * Then, like a scrape job: accounting (concurrency slot, `metadata.creditsUsed`, one charge per
 * scrape id), the Document serialized once, stored for `GET /v2/scrape/{id}` unless zero data
 * retention. A file that cannot be read answers 422 (the request was fine, the file is not).
 */
import type { Services } from '../services.ts';
import { TrawlError } from '../errors.ts';
import { runParse } from '../pipeline/parse.ts';
import { modelFor } from '../llm/service.ts';
import { saveDocument } from '../store/documents.ts';
import { startScrapeAccounting } from '../credits/scrape-accounting.ts';
import type { ScrapeJobData, ScrapeJobResult } from './scrape.ts';

export const PARSE_QUEUE = 'parse';

/** Codes that mean "this file cannot be read" (answered 422 for uploads instead of 500). */
const FILE_ERRORS = new Set(['PARSE_FAILED', 'SCRAPE_UNSUPPORTED_FILE_ERROR']);

/** Data of a queued parse: a scrape's data (`url` = `sourceURL` = `file://upload/<name>`) and the file's blob. */
export interface ParseJobData extends ScrapeJobData {
  file: {
    /** Blob store key of the uploaded bytes. */
    blob: string;
    filename: string;
    /** The part's Content-Type as sent ('' when none). */
    contentType: string;
    /** bytes */
    size: number;
  };
}

/**
 * Runs one parse job (worker side).
 * @returns the serialized Document
 * @throws TrawlError GONE (410) when the upload expired before a worker took it; the pipeline's
 *         errors, with PARSE_FAILED / SCRAPE_UNSUPPORTED_FILE_ERROR re-statused 422
 */
export async function handleParseJob(services: Services, data: ParseJobData, signal: AbortSignal): Promise<ScrapeJobResult> {
  const account = await startScrapeAccounting(services, data, signal);
  // Zero data retention: not even the file name reaches the logs.
  const log = account.log.child(data.options.zeroDataRetention ? { bytes: data.file.size } : { filename: data.file.filename, bytes: data.file.size });
  try {
    const blob = await services.blobs.get(data.file.blob);
    await services.blobs.delete?.(data.file.blob).catch((err) => log.warn({ err }, 'could not delete an upload blob'));
    if (!blob) {
      throw new TrawlError('GONE', `The upload of "${data.file.filename}" expired before a worker could parse it. Send the file again.`);
    }
    const file = { bytes: blob.bytes, filename: data.file.filename, contentType: data.file.contentType };
    const model = modelFor(services, { teamId: data.teamId, apiKeyId: data.keyId, jobId: data.scrapeId });
    const deps = { config: services.config, log, registry: services.registry, blobs: services.blobs, model };
    const doc = await runParse(account.request, file, deps, signal);
    account.finish(doc);
    const document = JSON.stringify(doc);
    if (!data.options.zeroDataRetention) {
      await saveDocument(services.db, {
        id: data.scrapeId,
        teamId: data.teamId,
        url: String(doc.metadata.url),
        sourceUrl: data.sourceURL,
        statusCode: Number(doc.metadata.statusCode),
        body: document,
      });
    }
    await account.charge();
    return { document };
  } catch (error) {
    await account.failed(error);
    const e = TrawlError.wrap(error);
    if (FILE_ERRORS.has(e.code)) throw new TrawlError(e.code, e.message, { status: 422, details: e.details, cause: e });
    throw e;
  } finally {
    await account.release();
  }
}

/** Registers the parse worker on the queue. */
export async function startParseWorker(services: Services): Promise<void> {
  await services.queue.process<ParseJobData, ScrapeJobResult>(
    PARSE_QUEUE,
    (job, signal) => handleParseJob(services, job.data, signal),
    { concurrency: services.config.workerConcurrency },
  );
}
