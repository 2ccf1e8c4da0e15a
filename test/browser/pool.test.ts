/**
 * The browser pool with real Chromium: bounded concurrency, a killed browser replaced without failing
 * the jobs, retirement and idle close, a Chromium that cannot start, the registered plugin, and no
 * Chromium process left after close().
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TrawlError } from '../../core/errors.ts';
import { Registry } from '../../core/registry.ts';
import { browserPool } from '../../plugins/engine/browser.ts';
import { fetchWithBrowser } from '../../plugins/engine/browser/fetch-page.ts';
import { BrowserPool } from '../../plugins/engine/browser/pool.ts';
import { startFixtureSite, type FixtureSite } from '../fixtures/browser/site.ts';
import { alive, engineRequest, pgrep, testEnv, type TestEnv } from './helpers.ts';

setDefaultTimeout(45_000);

let env: TestEnv;
let site: FixtureSite;

beforeAll(() => {
  env = testEnv({ TRAWL_BROWSER_POOL_SIZE: '2' });
  site = startFixtureSite();
});

afterAll(() => {
  site?.stop();
  env?.cleanup();
});

const poolDir = () => join(env.config.dataDir, 'browser', 'pool');
const newPool = (over: Partial<ConstructorParameters<typeof BrowserPool>[0]> = {}) =>
  new BrowserPool({ chromiumPath: env.config.chromiumPath, dataDir: env.config.dataDir, size: 2, log: env.ctx().log, ...over });

async function waitUntil(cond: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await Bun.sleep(25);
}

describe('browser pool', () => {
  test('concurrent scrapes share at most `size` browsers and all succeed; close() leaves no process', async () => {
    const pool = newPool({ pagesPerBrowser: 2 });
    let maxBrowsers = 0;
    let maxActive = 0;
    let sawWaiting = false;
    const sampler = setInterval(() => {
      const s = pool.stats();
      maxBrowsers = Math.max(maxBrowsers, s.browsers.length);
      maxActive = Math.max(maxActive, s.browsers.reduce((n, b) => n + b.active, 0));
      sawWaiting ||= s.waiting > 0;
    }, 10);
    try {
      const results = await Promise.all(
        Array.from({ length: 7 }, (_, i) => fetchWithBrowser(pool, engineRequest(site.url(i % 2 ? '/js' : '/form')), env.ctx())),
      );
      for (const [i, r] of results.entries()) expect(r.text).toContain(i % 2 ? 'Rendered by JavaScript' : 'id="name"');
    } finally {
      clearInterval(sampler);
    }
    expect(maxBrowsers).toBeLessThanOrEqual(2);
    expect(maxActive).toBeLessThanOrEqual(4);
    expect(sawWaiting).toBe(true);
    const pids = pool.pids();
    expect(pids.length).toBeGreaterThan(0);
    await pool.close();
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(pgrep(poolDir())).toEqual([]);
    expect(existsSync(poolDir()) ? readdirSync(poolDir()) : []).toEqual([]);
    await expect(pool.acquire()).rejects.toThrow('closed');
  });

  test('a killed browser is replaced: its job is retried, the other job and later jobs succeed', async () => {
    const pool = newPool({ pagesPerBrowser: 1 });
    try {
      const a = fetchWithBrowser(pool, engineRequest(site.url('/slow?ms=1500')), env.ctx());
      const b = fetchWithBrowser(pool, engineRequest(site.url('/slow?ms=1500')), env.ctx());
      await waitUntil(() => pool.pids().length === 2 && pool.stats().browsers.every((x) => x.active === 1));
      const victim = pool.pids()[0]!;
      const victimDir = join(poolDir(), `${process.pid}-${pool.stats().browsers.find((x) => x.pid === victim)!.id}`);
      await Bun.sleep(300);
      process.kill(victim, 'SIGKILL');
      const [ra, rb] = await Promise.all([a, b]);
      expect(ra.text).toContain('slow page');
      expect(rb.text).toContain('slow page');
      expect(pool.stats().crashed).toBe(1);
      expect(pool.pids()).not.toContain(victim);
      await waitUntil(() => pgrep(victimDir).length === 0);
      expect(pgrep(victimDir)).toEqual([]);
      const next = await fetchWithBrowser(pool, engineRequest(site.url('/js')), env.ctx());
      expect(next.text).toContain('Rendered by JavaScript');
    } finally {
      await pool.close();
    }
    expect(pgrep(poolDir())).toEqual([]);
  });

  test('browsers are retired after maxJobsPerBrowser jobs and closed when idle', async () => {
    const pool = newPool({ size: 1, maxJobsPerBrowser: 2, idleCloseMs: 300 });
    try {
      const first: number[] = [];
      for (let i = 0; i < 3; i++) {
        await fetchWithBrowser(pool, engineRequest(site.url('/form')), env.ctx());
        first.push(pool.pids()[0] ?? -1);
      }
      expect(pool.stats().launched).toBe(2);
      await waitUntil(() => !alive(first[0]!));
      expect(alive(first[0]!)).toBe(false);
      await waitUntil(() => pool.stats().browsers.length === 0 && pgrep(poolDir()).length === 0, 8_000);
      expect(pool.stats().browsers).toEqual([]);
      expect(pgrep(poolDir())).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  test('a released lease frees its place at once: the next job does not wait for the old context to close', async () => {
    const pool = newPool({ size: 1, pagesPerBrowser: 1 });
    try {
      const first = await pool.acquire();
      const closing = first.release(); // not awaited: its context is still closing
      expect(pool.stats().browsers[0]).toMatchObject({ active: 0, closing: 1 });
      const second = await pool.acquire();
      expect(second.context).not.toBe(first.context); // a fresh context all the same
      expect(pool.stats().browsers[0]!.active).toBe(1);
      await closing;
      expect(first.page.isClosed()).toBe(true);
      expect(pool.stats().browsers[0]).toMatchObject({ active: 1, closing: 0 });
      await second.release();
      const third = await fetchWithBrowser(pool, engineRequest(site.url('/js')), env.ctx());
      expect(third.text).toContain('Rendered by JavaScript');
    } finally {
      await pool.close();
    }
    expect(pgrep(poolDir())).toEqual([]);
  });

  test('the next spare page opens while a job runs (warmNext), and the next job takes it', async () => {
    const pool = newPool({ size: 1, pagesPerBrowser: 2 });
    try {
      const first = await pool.acquire();
      // The launch opened a spare; the first job took it, and none opens until the job says so.
      await Bun.sleep(300);
      expect(pool.stats().browsers[0]).toMatchObject({ active: 1, spare: false });
      first.warmNext();
      for (let i = 0; i < 200 && !pool.stats().browsers[0]!.spare; i++) await Bun.sleep(50); // hang bound only
      expect(pool.stats().browsers[0]).toMatchObject({ active: 1, spare: true });
      const second = await pool.acquire();
      expect(second.context).not.toBe(first.context);
      expect(pool.stats().browsers[0]).toMatchObject({ active: 2, spare: false });
      await Promise.all([first.release(), second.release()]);
    } finally {
      await pool.close();
    }
    expect(pgrep(poolDir())).toEqual([]);
  });

  test('a Chromium that cannot start is a clear 503', async () => {
    const pool = new BrowserPool({ chromiumPath: '/nonexistent/chromium', dataDir: env.config.dataDir, size: 1, log: env.ctx().log });
    try {
      const err = await fetchWithBrowser(pool, engineRequest(site.url('/form')), env.ctx()).catch((e) => e);
      expect(err).toBeInstanceOf(TrawlError);
      expect(err.code).toBe('BACKEND_UNAVAILABLE');
      expect(err.message).toContain('/nonexistent/chromium');
    } finally {
      await pool.close();
    }
  });

  test('the registered plugin scrapes with its own pool and close() shuts it down', async () => {
    const engine = await new Registry().get('engine', 'browser');
    expect(engine.name).toBe('browser');
    expect(engine.features).toContain('actions');
    expect(engine.cost).toBeGreaterThan(1);
    const res = await engine.fetch(engineRequest(site.url('/js')), env.ctx());
    expect(res.engine).toBe('browser');
    expect(res.text).toContain('Rendered by JavaScript');
    const pids = browserPool()!.pids();
    expect(pids.length).toBe(1);
    await engine.close!();
    expect(browserPool()).toBeUndefined();
    for (const pid of pids) expect(alive(pid)).toBe(false);
    expect(pgrep(poolDir())).toEqual([]);
  });
});
