#!/usr/bin/env bun
/**
 * The Trawl executable: `trawl [mode]` where mode is serve (default: API + worker + scheduler in one
 * process), api, worker, scheduler, migrate, or version. Compiled with `bun build --compile` into
 * `dist/trawl`; run from a checkout with `bun bin/trawl.ts serve`.
 */
import { loadConfig, ConfigError, enterProductionMode } from '../core/config.ts';
import { createLogger } from '../core/log.ts';
import { VERSION } from '../core/version.ts';
import { enableStartupTrace, startupMark } from '../core/startup-trace.ts';
import type { OpenDatabaseOptions } from '../core/db/client.ts';

const USAGE = `Usage: trawl [serve|api|worker|scheduler|migrate|scrape|map|search|crawl|mcp|plugins|version|help]

  serve       API, worker and scheduler in one process (default)
  api         HTTP API only (needs DATABASE_URL and REDIS_URL to share work with workers)
  worker      queue worker only
  scheduler   monitor schedules and housekeeping (one leader among all scheduler processes)
  migrate     apply database migrations and exit
  teams ...   create and list teams, set credits (trawl teams --help)
  keys ...    create, list, restrict and revoke API keys (trawl keys --help)
  scrape URL  print a page as markdown (trawl scrape --help); also map URL, search QUERY
  crawl URL   crawl into a directory with progress, resumable (trawl crawl --help)
  mcp         MCP server on stdio with the firecrawl-mcp tools (trawl mcp --help)
  plugins     list built-in and external plugins (trawl plugins list; docs/plugins.md)
  version     print the version

Environment: PORT (3002), HOST, DATABASE_URL, REDIS_URL, TRAWL_DATA_DIR (./data), TRAWL_PUBLIC_URL,
TRAWL_AUTH (keys|off), TRAWL_ALLOW_PRIVATE_TARGETS, CHROMIUM_PATH (Debian's chromium-headless-shell, else /usr/bin/chromium), TRAWL_PLUGINS_DIR.
See README.md and docs/.`;

async function main(argv: string[]): Promise<number> {
  const mode = argv[0] ?? 'serve';
  if (mode === 'version' || mode === '--version' || mode === '-v') {
    process.stdout.write(`trawl ${VERSION}\n`);
    return 0;
  }
  if (mode === 'help' || mode === '--help' || mode === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`trawl: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  enableStartupTrace(config.startupTrace);
  startupMark('bin:main');
  if (['scrape', 'map', 'search', 'crawl'].includes(mode)) {
    const { cliMain } = await import('./cli.ts');
    return cliMain(mode, argv.slice(1), config);
  }
  if (mode === 'plugins') {
    const { pluginsMain } = await import('./plugins.ts');
    return pluginsMain(argv.slice(1), config);
  }
  if (mode === 'mcp') {
    // Before the logger below: stdout carries only MCP messages, so mcp logs to stderr.
    const { mcpMain } = await import('./mcp.ts');
    return mcpMain(argv.slice(1), config);
  }
  const log = createLogger(config.logLevel, { mode });
  // A library bug that throws outside any request (a worker callback, a timer) must not take every
  // other request down with it: log it and keep serving.
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled promise rejection'));
  process.on('uncaughtException', (err) => log.error({ err }, 'uncaught exception'));
  if (mode === 'migrate') {
    const { openDatabase } = await import('../core/db/client.ts');
    const db = await openDatabase(config, log, await embeddedDbOptions());
    await db.close();
    log.info('migrations applied');
    return 0;
  }
  if (mode === 'keys' || mode === 'teams') {
    const { adminMain } = await import('./admin.ts');
    return adminMain(argv, config, log);
  }
  if (!['serve', 'api', 'worker', 'scheduler'].includes(mode)) {
    process.stderr.write(`trawl: unknown mode "${mode}"\n\n${USAGE}\n`);
    return 2;
  }
  enterProductionMode(); // before the HTTP framework is first imported (through core/runtime.ts)
  startupMark('bin:config');
  // The embedded database starts opening in its own thread (WebAssembly compile, PGlite start) while
  // this one loads the rest of the program; openDatabase picks it up (or throws its error). Not with
  // external plugins: one that fails its checks must stop the start before anything (the data
  // directory) is made, and they load inside start().
  const openEarly = mode === 'serve' && !config.databaseUrl && config.pluginPaths.length === 0;
  const dbOptions = await embeddedDbOptions(openEarly ? config.dataDir : undefined);
  startupMark('bin:db-opening');
  const { start } = await import('../core/runtime.ts');
  startupMark('bin:runtime-imported');
  const running = await startOrExplain(start, mode as 'serve', config, log, (key) => {
    process.stdout.write(
      `\nCreated the admin team and its API key (shown once, store it now):\n\n  ${key}\n\n` +
        `Use it as "Authorization: Bearer ${key}". Set TRAWL_AUTH=off to run without keys on a private machine.\n\n`,
    );
  }, dbOptions);
  await new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      log.info({ signal }, 'shutting down');
      running.stop().then(resolve, (err) => {
        log.error({ err }, 'shutdown failed');
        resolve();
      });
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });
  return 0;
}

/**
 * The binary's pre-initialised embedded database (core/db/template.ts), used for an empty data
 * directory; with `openNowIn` (a data directory) the embedded database there starts opening now, in
 * its worker thread (`pgliteOpening`).
 */
async function embeddedDbOptions(openNowIn?: string): Promise<OpenDatabaseOptions> {
  const { embeddedTemplate } = await import('../core/db/template.ts');
  const pgliteTemplate = embeddedTemplate();
  const options: OpenDatabaseOptions = pgliteTemplate ? { pgliteTemplate } : {};
  if (openNowIn !== undefined) {
    const { startRemotePglite } = await import('../core/db/pglite-remote.ts');
    const { pgliteDataDir } = await import('../core/db/pglite.ts');
    const opening = startRemotePglite(pgliteDataDir(openNowIn), { template: pgliteTemplate });
    // This thread's part (lock, unpacking a template) is done before the program loads; an error
    // (lock held elsewhere) is thrown by openDatabase, where it was thrown before.
    await opening.sent.catch(() => {});
    options.pgliteOpening = opening.opened;
  }
  return options;
}

/** Runs `start`, turning configuration errors into a one-line message instead of a stack trace. */
async function startOrExplain<A extends unknown[], R>(start: (...a: A) => Promise<R>, ...args: A): Promise<R> {
  try {
    return await start(...args);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`trawl: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    // A configuration problem found late (an external plugin loaded by a CLI command) reads like one found early.
    if (err instanceof ConfigError) {
      process.stderr.write(`trawl: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`trawl: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
