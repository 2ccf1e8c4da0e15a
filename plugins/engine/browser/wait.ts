/**
 * Waiting helpers for the browser engine: "smart wait" (interface.md `waitFor`: extra delay "added on
 * top of built-in smart waiting") waits for the load event and for network quiet (no request in
 * flight for 500 ms; failing that, at most two, like puppeteer's networkidle2), all under a cap so
 * pages with long-polling or endless trackers still finish. `settle` is the short version used after actions that
 * may start loading (click, scroll, press).
 */
import type { HTTPRequest, Page } from 'puppeteer-core';
import { sleep } from '../../../core/net/deadline.ts';

/** Longest smart wait before capture, ms. */
export const SMART_WAIT_MAX_MS = 7_000;

/** Network quiet before capture: nothing in flight for this long, ms (puppeteer's networkidle0). */
export const QUIET_MS = 500;
/** Time after the load event within which requests started by load handlers still count, ms. */
const AFTER_LOAD_MS = 100;

/**
 * Waits for `document.readyState === 'complete'` and for network quiet, together at most `capMs`.
 * Quiet first means nothing in flight for 500 ms (so a late API call that fills the page is waited
 * for); when a page never gets there (long-polling, streaming trackers) within half of the cap (at
 * most 3 s), two requests in flight for 500 ms is enough. The quiet is counted from the page's last
 * network activity (tracked since `trackNetwork`, called before navigation), not from the moment this
 * wait starts, and the load check runs beside it rather than before it: a page whose API call ended
 * while it was still loading is done 500 ms after that call, not 500 ms after the check. Requests
 * that load handlers start are still seen (the quiet must reach 100 ms past the load event). Never
 * throws: a page that does not settle is captured as it is.
 */
export async function smartWait(page: Page, capMs: number): Promise<void> {
  if (capMs <= 0) return;
  const start = Date.now();
  const end = start + capMs;
  const net = trackNetwork(page);
  let loadedAt: number | undefined;
  const load = loaded(page, capMs).then(() => {
    loadedAt = Date.now();
    net.poke();
  });
  const strictUntil = start + Math.min(3_000, Math.floor(capMs / 2));
  const ready = (concurrency: number) => () => {
    if (loadedAt === undefined) return undefined;
    const since = net.calmSince(concurrency);
    if (since === undefined) return undefined;
    return Math.max(since + QUIET_MS, loadedAt + AFTER_LOAD_MS);
  };
  if (await net.until(ready(0), strictUntil)) return;
  await load; // (a cap that ends before the load event ends the wait)
  await net.until(ready(2), end);
}

/**
 * What a page's network is doing: requests in flight and since when few enough have been. Counted as
 * puppeteer counts for waitForNetworkIdle (a request ends with its response, its completion or its
 * failure), but from the moment it is installed, so a wait can count quiet that began before it.
 */
export interface NetworkActivity {
  /** Since when (epoch ms) at most `concurrency` (0-2) requests have been in flight; undefined while more are. */
  calmSince(concurrency: number): number | undefined;
  /**
   * Resolves true at the time `due` returns (epoch ms; undefined: not yet known), re-asked on every
   * network change and `poke`; false at `until` (epoch ms).
   */
  until(due: () => number | undefined, until: number): Promise<boolean>;
  /** Re-asks every pending `until` (something outside the network changed). */
  poke(): void;
}

const tracked = new WeakMap<Page, NetworkActivity>();

/** The page's network activity tracker, installed on first call (call it before navigating). */
export function trackNetwork(page: Page): NetworkActivity {
  let net = tracked.get(page);
  if (!net) {
    net = createTracker(page);
    tracked.set(page, net);
  }
  return net;
}

function createTracker(page: Page): NetworkActivity {
  const open = new Set<HTTPRequest>();
  const now = Date.now();
  const calm: (number | undefined)[] = [now, now, now];
  const waiters = new Set<() => void>();
  const changed = () => {
    const t = Date.now();
    for (let c = 0; c < calm.length; c++) calm[c] = open.size > c ? undefined : (calm[c] ?? t);
    for (const w of [...waiters]) w();
  };
  const done = (r: HTTPRequest) => {
    if (open.delete(r)) changed();
  };
  page.on('request', (r) => {
    open.add(r);
    changed();
  });
  page.on('response', (r) => done(r.request()));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    calmSince: (c) => calm[Math.max(0, Math.min(calm.length - 1, c))],
    poke: () => {
      for (const w of [...waiters]) w();
    },
    until(due, until) {
      return new Promise<boolean>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const finish = (v: boolean) => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(v);
        };
        const check = () => {
          clearTimeout(timer);
          const t = Date.now();
          const at = due();
          if (at !== undefined && t >= at) return finish(true);
          if (t >= until || page.isClosed()) return finish(false);
          timer = setTimeout(check, Math.max(1, Math.min(until, at ?? until) - t));
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/**
 * Waits for the load event of the page's current document, at most `capMs`. One small evaluate that
 * the load event itself answers, rather than puppeteer's waitForFunction (which injects its utility
 * script and a polling task into every page): cheaper for the browser and no 100 ms polling step. A
 * document replaced meanwhile (a redirect by script) is waited for in turn.
 */
async function loaded(page: Page, capMs: number): Promise<void> {
  const end = Date.now() + capMs;
  while (Date.now() < end) {
    const done = page
      .evaluate(() => document.readyState === 'complete' || new Promise<boolean>((resolve) => addEventListener('load', () => resolve(true), { once: true })))
      .then(
        () => 'loaded' as const,
        (e: unknown) => (/context was destroyed|navigat|Cannot find context/i.test(String((e as Error)?.message)) ? ('again' as const) : ('failed' as const)),
      );
    const cap = new AbortController();
    const timeout = sleep(Math.max(1, end - Date.now()), cap.signal).then(() => 'timeout' as const, () => 'timeout' as const);
    const result = await Promise.race([done, timeout]);
    cap.abort(); // no timer left behind once the page has loaded
    if (result !== 'again') return;
    await sleep(50);
  }
}

/**
 * After an interaction: lets a started navigation reach DOMContentLoaded and requests it started
 * finish, at most `capMs` (default 2000). Never throws.
 */
export async function settle(page: Page, capMs = 2_000): Promise<void> {
  const end = Date.now() + capMs;
  await sleep(50);
  await page
    .waitForFunction(() => document.readyState !== 'loading', { timeout: Math.max(1, end - Date.now()), polling: 50 })
    .catch(() => undefined);
  const left = end - Date.now();
  if (left > 0) await page.waitForNetworkIdle({ idleTime: 250, concurrency: 0, timeout: left }).catch(() => undefined);
}

