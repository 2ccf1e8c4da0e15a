/**
 * Starts a real Trawl in the test process: services from a config (embedded PGlite in a temp data dir
 * and the in-process queue by default, seeded already migrated: test/helpers/db.ts), the worker, and
 * the HTTP app on a free port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../core/config.ts';
import { createLogger } from '../../core/log.ts';
import { start, type Running } from '../../core/runtime.ts';
import { migratedPgliteTemplate } from './db.ts';
import type { Registry } from '../../core/registry.ts';

export interface TestTrawl {
  base: string;
  running: Running;
  /** The admin key created on first start (auth mode `keys`). */
  adminKey?: string;
  /** POST JSON; returns status and parsed body. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  stop(): Promise<void>;
}

/**
 * Starts Trawl.
 * @param env extra environment (e.g. `{ DATABASE_URL, REDIS_URL, TRAWL_AUTH: 'off' }`)
 * @param mode process mode (default `serve`)
 * @param registry the plugins (default the built-in ones); a test may register its own
 */
export async function startTrawl(env: Record<string, string> = {}, mode: 'serve' | 'api' | 'worker' = 'serve', registry?: Registry): Promise<TestTrawl> {
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-test-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', TRAWL_DATA_DIR: dataDir, TRAWL_ALLOW_PRIVATE_TARGETS: 'true', ...env });
  const log = createLogger(process.env.TRAWL_TEST_LOG ?? 'silent');
  let adminKey: string | undefined;
  const dbOptions = config.databaseUrl ? {} : { pgliteTemplate: await migratedPgliteTemplate() };
  const running = await start(mode, config, log, (k) => (adminKey = k), dbOptions, registry);
  const base = `http://127.0.0.1:${running.port}`;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed as any, text, headers: res.headers };
  };
  return {
    base,
    running,
    adminKey,
    post: (p, b, h) => call('POST', p, b, h),
    get: (p, h) => call('GET', p, undefined, h),
    async stop() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
