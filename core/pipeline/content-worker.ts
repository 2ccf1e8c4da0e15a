/**
 * Content thread entry (see content-threads.ts): builds Documents of fetched pages with the same
 * `buildDocument` the main thread uses, with its own plugin registry. Tasks carry everything the
 * build reads (the engine response and the scrape request); the blob store is not available here,
 * which is why only `pure` formats are sent (core/plugin.ts).
 *
 * Messages in:  ContentInit (first), then ContentTask
 * Messages out: ContentReply ({id, doc} | {id, error})
 *
 * Compiled binary: listed as an extra build entrypoint (bin/build.ts); it lands at
 * `/$bunfs/root/core/pipeline/content-worker.js`.
 */
import type { ResolvedConfig } from '../config.ts';
import { createLogger, scrapeLogger, type Logger } from '../log.ts';
import type { Registry } from '../registry.ts';
import { registryFor } from '../external-plugins.ts';
import { TrawlError } from '../errors.ts';
import type { BlobStore } from '../blobs.ts';
import { buildDocument, runContext } from './scrape.ts';
import type { ContentInit, ContentReply, ContentTask } from './content-threads.ts';

declare const self: Worker;

// The built-in plugins plus the external ones the main thread checked at startup (loaded again here).
let registry: Promise<Registry> | undefined;
let config: ResolvedConfig | undefined;
let log: Logger | undefined;

/** Pure formats never store blobs; a call here is a bug in the format's `pure` flag. */
const noBlobs = new Proxy({} as BlobStore, {
  get() {
    throw new TrawlError('UNKNOWN_ERROR', 'A format marked pure used the blob store on a content thread.');
  },
});

async function run(task: ContentTask): Promise<ContentReply> {
  const run = runContext(task.req, { config: config!, log: scrapeLogger(log!, { scrapeId: task.req.scrapeId }, task.req.options.zeroDataRetention || task.req.options.lockdown), blobs: noBlobs });
  try {
    const doc = await buildDocument(task.response, task.req, { registry: await registry! }, run, task.filename);
    return { id: task.id, doc };
  } catch (e) {
    return { id: task.id, error: TrawlError.wrap(e).toJSON() };
  } finally {
    run.end();
  }
}

self.onmessage = (event: MessageEvent<ContentInit | ContentTask>) => {
  const data = event.data;
  if ('config' in data) {
    config = data.config;
    log = createLogger(config.logLevel, { component: 'content-thread' });
    registry = registryFor(config, log, false);
    return;
  }
  void run(data).then((reply) => self.postMessage(reply));
};
