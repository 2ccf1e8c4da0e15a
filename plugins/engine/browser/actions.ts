/**
 * Runs the `actions` list on a live page (interface.md "Action types"; issue 3 scope 2) and collects
 * their outputs into `ActionResults` in request order: `screenshots` (screenshot), `scrapes` (scrape),
 * `javascriptReturns` (executeJavascript), `pdfs` (pdf). Interaction-only actions (wait, click, write,
 * press, scroll) produce nothing. A failing action stops the list with SCRAPE_ACTION_ERROR naming the
 * action by its index in the request (0-based, like `actions[2]` in validation errors) and type.
 */
import type { ElementHandle, KeyInput, Page } from 'puppeteer-core';
import type { BlobStore } from '../../../core/blobs.ts';
import { TrawlError } from '../../../core/errors.ts';
import type { Action } from '../../../core/scrape/actions.ts';
import type { ActionResults } from '../../../core/plugin.ts';
import { pdfToBlob, screenshotToBlob } from './capture.ts';
import { settle } from './wait.ts';
import { sleep } from '../../../core/net/deadline.ts';

/** Longest a `wait` for a selector may take, ms. */
export const SELECTOR_WAIT_MAX_MS = 30_000;

export interface ActionEnv {
  page: Page;
  blobs: BlobStore;
  /** The job's signal (timeout or cancel). */
  signal: AbortSignal;
  /** Time left in the job, ms. */
  remaining(): number;
}

/** A failure the action itself explains (message without the "Action i (type)" prefix). */
class ActionFailure extends Error {}

/**
 * Runs every action in order.
 * @throws TrawlError SCRAPE_ACTION_ERROR `Action <i> (<type>) failed: <why>`, details `{ index, type }`;
 *         the signal's reason when the job is aborted.
 */
export async function runActions(actions: Action[], env: ActionEnv): Promise<ActionResults> {
  const results: ActionResults = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
  for (const [index, action] of actions.entries()) {
    env.signal.throwIfAborted();
    try {
      await runOne(action, env, results);
    } catch (e) {
      if (env.signal.aborted) throw env.signal.reason;
      const why = e instanceof ActionFailure ? e.message : cleanMessage(e);
      throw new TrawlError('SCRAPE_ACTION_ERROR', `Action ${index} (${action.type}) failed: ${why}`, {
        details: { index, type: action.type },
        cause: e,
      });
    }
  }
  return results;
}

async function runOne(action: Action, env: ActionEnv, out: ActionResults): Promise<void> {
  const { page } = env;
  switch (action.type) {
    case 'wait': {
      if (action.milliseconds !== undefined) {
        await sleep(Math.min(action.milliseconds, Math.max(0, env.remaining())), env.signal);
        return;
      }
      const timeout = Math.max(1, Math.min(SELECTOR_WAIT_MAX_MS, env.remaining() - 500));
      try {
        await page.waitForSelector(action.selector!, { timeout });
      } catch (e) {
        if ((e as Error).name === 'TimeoutError') throw new ActionFailure(`selector "${action.selector}" did not appear within ${timeout} ms`);
        throw e;
      }
      return;
    }
    case 'click': {
      if (action.all) {
        const handles = await page.$$(action.selector);
        for (const h of handles) await clickElement(h);
        await Promise.all(handles.map((h) => h.dispose().catch(() => undefined)));
      } else {
        const h = await page.$(action.selector);
        if (!h) throw new ActionFailure(`no element matches "${action.selector}"`);
        await clickElement(h);
        await h.dispose().catch(() => undefined);
      }
      await settle(page, cap(env));
      return;
    }
    case 'write': {
      const focused = await page.evaluate(() => {
        const a = document.activeElement;
        return !!a && a !== document.body && a !== document.documentElement;
      });
      if (!focused) throw new ActionFailure('no element is focused; click an input first (a click action before write)');
      await page.keyboard.type(action.text);
      return;
    }
    case 'press':
      await page.keyboard.press(action.key as KeyInput);
      await settle(page, cap(env));
      return;
    case 'scroll': {
      const dir = action.direction === 'up' ? -1 : 1;
      const ok = await page.evaluate(
        (selector, d) => {
          if (selector) {
            const el = document.querySelector(selector);
            if (!el) return false;
            el.scrollBy({ top: d * (el.clientHeight || window.innerHeight) });
          } else {
            window.scrollBy({ top: d * window.innerHeight });
          }
          return true;
        },
        action.selector ?? null,
        dir,
      );
      if (!ok) throw new ActionFailure(`no element matches "${action.selector}"`);
      await settle(page, cap(env));
      return;
    }
    case 'scrape':
      out.scrapes.push({ url: page.url(), html: await page.content() });
      return;
    case 'executeJavascript':
      out.javascriptReturns.push(describe(await evaluateScript(page, action.script)));
      return;
    case 'screenshot':
      out.screenshots.push(await screenshotToBlob(page, action, env.blobs));
      return;
    case 'pdf':
      out.pdfs.push(await pdfToBlob(page, action, env.blobs, env.remaining()));
      return;
  }
}

const cap = (env: ActionEnv) => Math.max(0, Math.min(2_000, env.remaining() - 1_000));

/** Real mouse click at the element's centre; a DOM `click()` when it has no box (hidden, zero size). */
async function clickElement(h: ElementHandle<Element>): Promise<void> {
  try {
    await h.click();
  } catch {
    await h.evaluate((el) => (el as HTMLElement).click());
  }
}

/**
 * Evaluates a script in the page and returns its value: the completion value of the script (its last
 * expression), awaited when it is a promise; a script with top-level `return` or `await` runs as the
 * body of an async function.
 */
export async function evaluateScript(page: Page, script: string): Promise<unknown> {
  try {
    return await page.evaluate(script);
  } catch (e) {
    const m = (e as Error).message ?? '';
    if (/Illegal return statement|await is only valid|Unexpected reserved word/.test(m)) {
      return await page.evaluate(`(async () => {\n${script}\n})()`);
    }
    throw e;
  }
}

/** `{ type, value }` as in `javascriptReturns`: `typeof` the value, `null` for null. */
function describe(value: unknown): { type: string; value: unknown } {
  if (value === null) return { type: 'null', value: null };
  if (value === undefined) return { type: 'undefined', value: null };
  return { type: typeof value, value };
}

function cleanMessage(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.split('\n')[0]!.replace(/^Error: /, '').slice(0, 500) || 'unknown error';
}
