/**
 * Process modes of the one executable: `serve` (API + worker + scheduler in one process, the embedded
 * default), `api`, `worker`, `scheduler`. Opens the services, starts what the mode needs, and shuts
 * down cleanly on SIGINT/SIGTERM (HTTP first, then the queue lets running jobs finish, then browsers
 * and the database).
 */
import { ConfigError, type ResolvedConfig } from './config.ts';
import type { OpenDatabaseOptions } from './db/client.ts';
import type { Logger } from './log.ts';
import type { Registry } from './registry.ts';
import { defaultBaseUrl, openServices, type Services } from './services.ts';
import { startScheduler } from './scheduler.ts';
import { startScrapeWorker } from './jobs/scrape.ts';
import { startCrawlWorker } from './jobs/crawl.ts';
import { startParseWorker } from './jobs/parse.ts';
import { startExtractWorker } from './jobs/extract.ts';
import { startAgentWorker } from './agent/worker.ts';
import { startMonitorWorker } from './jobs/monitor.ts';
import { bootstrapAdminKey } from './auth/keys.ts';
import { closeLimits } from './limits/index.ts';
import { startupMark } from './startup-trace.ts';

export type Mode = 'serve' | 'api' | 'worker' | 'scheduler';

export interface Running {
  services: Services;
  /** The listening port when the mode serves HTTP. */
  port?: number;
  stop(): Promise<void>;
}

/** Starts every worker kind (scrape, crawl, parse, extract …) on `services`' queue; also used by the in-process CLI and MCP. */
export async function startWorkers(services: Services): Promise<void> {
  await startScrapeWorker(services);
  await startCrawlWorker(services);
  await startParseWorker(services);
  await startExtractWorker(services);
  await startAgentWorker(services);
  await startMonitorWorker(services);
}

/**
 * Starts a mode.
 * @param onAdminKey called with a freshly created admin key on an empty instance (printed once)
 * @param registry the plugins (default the built-in ones)
 */
export async function start(
  mode: Mode,
  config: ResolvedConfig,
  log: Logger,
  onAdminKey?: (key: string) => void,
  dbOptions: OpenDatabaseOptions = {},
  registry?: Registry,
): Promise<Running> {
  if (mode !== 'serve' && (!config.databaseUrl || !config.redisUrl)) {
    throw new ConfigError(
      `Mode "${mode}" shares work with other processes, so it needs DATABASE_URL (Postgres) and REDIS_URL (queue). ` +
        'Run "trawl serve" for the single-process embedded default.',
    );
  }
  startupMark('runtime:start');
  const serving = mode === 'serve' || mode === 'api';
  // Loaded while the database opens (in its own thread for the embedded one), not after it.
  const http = serving ? import('./http/app.ts') : undefined;
  http?.catch(() => {}); // awaited below; an error there is thrown there
  const services = await openServices(config, log, registry, dbOptions);
  startupMark('runtime:services');
  const stops: (() => Promise<void> | void)[] = [() => closeLimits(services)];
  let port: number | undefined;
  if (config.auth === 'keys' && (mode === 'serve' || mode === 'api')) {
    const created = await bootstrapAdminKey(services.db, config.team.credits, config.team.concurrency);
    if (created) onAdminKey?.(created.key);
  }
  startupMark('runtime:admin-key');
  if (mode === 'serve' || mode === 'worker') await startWorkers(services);
  startupMark('runtime:workers');
  if (mode === 'serve' || mode === 'scheduler') stops.push(startScheduler(services));
  startupMark('runtime:scheduler');
  if (http) {
    const { createApp, httpProduction } = await http;
    startupMark('runtime:http-imported');
    const app = createApp(services).listen({ port: config.port, hostname: config.host });
    startupMark('runtime:listening');
    port = app.server?.port;
    if (port) services.baseUrl = defaultBaseUrl(config, port);
    log.info({ port, host: config.host, mode, database: services.db.kind, queue: services.queue.kind, production: httpProduction }, 'trawl listening');
    stops.push(async () => {
      await app.stop();
    });
  } else {
    log.info({ mode, database: services.db.kind, queue: services.queue.kind }, 'trawl started');
  }
  let stopping: Promise<void> | undefined;
  return {
    services,
    port,
    stop() {
      stopping ??= (async () => {
        for (const s of stops.reverse()) await s();
        await services.close();
      })();
      return stopping;
    },
  };
}
