/**
 * Waiting helpers for the browser engine: "smart wait" (interface.md `waitFor`: extra delay "added on
 * top of built-in smart waiting") waits for the load event and then for network quiet (no request in
 * flight for 500 ms; failing that, at most two, like puppeteer's networkidle2), all under a cap so
 * pages with long-polling or endless trackers still finish. `settle` is the short version used after actions that
 * may start loading (click, scroll, press).
 */
import type { Page } from 'puppeteer-core';
import { sleep } from '../../../core/net/deadline.ts';

/** Longest smart wait before capture, ms. */
export const SMART_WAIT_MAX_MS = 7_000;

/**
 * Waits for `document.readyState === 'complete'`, then for network quiet, together at most `capMs`.
 * Quiet first means nothing in flight for 500 ms (so a late API call that fills the page is waited
 * for); when a page never gets there (long-polling, streaming trackers) within half of what is left
 * (at most 3 s), two requests in flight for 500 ms is enough. Never throws: a page that does not
 * settle is captured as it is.
 */
export async function smartWait(page: Page, capMs: number): Promise<void> {
  if (capMs <= 0) return;
  const end = Date.now() + capMs;
  await loaded(page, capMs);
  const strict = Math.min(3_000, Math.floor((end - Date.now()) / 2));
  if (strict <= 0) return;
  const quiet = await page.waitForNetworkIdle({ idleTime: 500, concurrency: 0, timeout: strict }).then(
    () => true,
    () => false,
  );
  const left = end - Date.now();
  if (!quiet && left > 0) await page.waitForNetworkIdle({ idleTime: 500, concurrency: 2, timeout: left }).catch(() => undefined);
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

