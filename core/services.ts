/**
 * The services one process runs on: database, queue, plugin registry, blob store, the loaded format
 * plugins. `openServices` opens them from the resolved config; `close` shuts them down in reverse
 * order (queue first so running jobs finish, then browsers, then the search index's last rows, then
 * the database).
 */
import { join } from 'node:path';
import type { ResolvedConfig } from './config.ts';
import type { Logger } from './log.ts';
import type { FormatPlugin } from './plugin.ts';
import type { BlobStore } from './blobs.ts';
import { openDatabase, type Database, type OpenDatabaseOptions } from './db/client.ts';
import { openQueue } from './queue/index.ts';
import type { QueueDriver } from './queue/types.ts';
import type { Registry } from './registry.ts';
import { registryFor } from './external-plugins.ts';
import { formatPlugins } from './pipeline/scrape.ts';
import { createLocalBlobStore } from './blob-stores/local.ts';
import { createDatabaseBlobStore } from './blob-stores/database.ts';
import { ensureBuiltinTeams } from './auth/authenticate.ts';
import { createSearchIndexFeed, type SearchIndexFeed } from './search/index-feed.ts';
import { createContentThreads, type ContentThreads } from './pipeline/content-threads.ts';
import { startupMark } from './startup-trace.ts';

export interface Services {
  config: ResolvedConfig;
  log: Logger;
  db: Database;
  queue: QueueDriver;
  registry: Registry;
  blobs: BlobStore;
  formats: Map<string, FormatPlugin>;
  /** Threads that build documents of web pages (undefined: built on the main thread). */
  content?: ContentThreads;
  /** Batched intake of the local search index (crawl and batch pages feed it; flushed on close). */
  searchIndex: SearchIndexFeed;
  /**
   * Base of absolute URLs when no request is at hand (workers building blob URLs): TRAWL_PUBLIC_URL,
   * else the listen address (updated with the real port once the API listens). Separate worker
   * processes have no listen address: set TRAWL_PUBLIC_URL there.
   */
  baseUrl: string;
  close(): Promise<void>;
}

/** Base URL for absolute links built outside a request. */
export function defaultBaseUrl(config: ResolvedConfig, port = config.port): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Opens every service.
 * @param registry the plugins (default: the built-in ones plus those of `config.pluginPaths`)
 * @throws ConfigError naming an external plugin that fails to load or check (before anything opens);
 *         whatever the database or queue raise when they cannot be reached (startup fails loudly)
 */
export async function openServices(
  config: ResolvedConfig,
  log: Logger,
  registry?: Registry,
  dbOptions: OpenDatabaseOptions = {},
): Promise<Services> {
  registry ??= await registryFor(config, log.child({ component: 'plugins' }));
  startupMark('services:registry');
  const db = await openDatabase(config, log.child({ component: 'db' }), dbOptions);
  startupMark('services:db');
  await ensureBuiltinTeams(db, config);
  startupMark('services:teams');
  const queue = await openQueue(config, db, log.child({ component: 'queue' }), { lockDurationMs: config.queue.lockMs, stalledIntervalMs: config.queue.lockMs });
  startupMark('services:queue');
  let services: Services;
  // With a shared database any API node serves any blob; the embedded default keeps them on disk.
  const blobs = config.databaseUrl ? createDatabaseBlobStore(db, () => services.baseUrl) : createLocalBlobStore(join(config.dataDir, 'blobs'), () => services.baseUrl);
  const formats = await formatPlugins(registry);
  startupMark('services:formats');
  services = {
    config,
    log,
    db,
    queue,
    registry: registry!,
    blobs,
    formats,
    content: createContentThreads(config, log.child({ component: 'content-threads' })),
    searchIndex: createSearchIndexFeed(db, log.child({ component: 'search-index' })),
    baseUrl: defaultBaseUrl(config),
    async close() {
      await queue.close(10_000).catch((e) => log.warn({ err: e }, 'queue close failed'));
      for (const engine of await registry!.loaded('engine')) await engine.close?.().catch(() => {});
      for (const parser of await registry!.loaded('parser')) await parser.close?.().catch(() => {});
      await services.content?.close();
      await services.searchIndex.flush();
      await db.close().catch((e) => log.warn({ err: e }, 'database close failed'));
    },
  };
  return services;
}
