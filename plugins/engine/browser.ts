/**
 * The browser engine (issue 3, scope 1-3): Debian's Chromium driven by puppeteer-core, for what plain
 * HTTP cannot do — pages that render with JavaScript, `actions`, screenshots, the `pdf` action, `mobile`,
 * `waitFor`, `location`. This file stays light: puppeteer and the pool load on the first fetch. The pool
 * is one per process, built from the first job's config; `close()` shuts it down with every Chromium.
 */
import { defineEngine, type EngineRequest, type PluginContext } from '../../core/plugin.ts';
import type { BrowserPool } from './browser/pool.ts';
import type { BrowserSession } from './browser/session.ts';

let pool: BrowserPool | undefined;
let creating: Promise<BrowserPool> | undefined;

/** The process's browser pool, if one was started (tests and shutdown hooks inspect it). */
export function browserPool(): BrowserPool | undefined {
  return pool;
}

async function getPool(ctx: PluginContext): Promise<BrowserPool> {
  if (pool) return pool;
  creating ??= import('./browser/pool.ts').then(({ BrowserPool }) => {
    pool = new BrowserPool({
      chromiumPath: ctx.config.chromiumPath,
      dataDir: ctx.config.dataDir,
      size: ctx.config.browserPoolSize,
      log: ctx.log.child({ plugin: 'browser', component: 'pool' }),
    });
    return pool;
  });
  try {
    return await creating;
  } finally {
    creating = undefined;
  }
}

/**
 * Opens a live page for an interact session on this process's pool (compat.md §5); see
 * browser/session.ts for what opening replays.
 */
export async function openBrowserSession(request: EngineRequest, ctx: PluginContext): Promise<BrowserSession> {
  const [p, { openSession }] = await Promise.all([getPool(ctx), import('./browser/session.ts')]);
  return openSession(p, request, ctx);
}

export default defineEngine({
  name: 'browser',
  features: ['http', 'js', 'actions', 'screenshot', 'pdf-print', 'mobile', 'wait', 'location', 'profile'],
  cost: 10,
  async fetch(request, ctx) {
    const [p, { fetchWithBrowser }] = await Promise.all([getPool(ctx), import('./browser/fetch-page.ts')]);
    return fetchWithBrowser(p, request, ctx);
  },
  async close() {
    const p = pool;
    pool = undefined;
    await p?.close();
  },
});
