/**
 * The `page` object of interact code (compat.md §5; issue 3 scope 7), Trawl side. User code runs in
 * a sandbox page (sandbox.ts); every `page.x(...)` there becomes one call of `callPage(live, 'x', args)`
 * here, executed with puppeteer on the session's live page. What `page` offers (all async):
 *
 * | call | does | returns |
 * |---|---|---|
 * | `goto(url, {timeout?})` | navigates (SSRF guard and proxy of the session apply) | `{url, status}` |
 * | `url()`, `title()`, `content()` | reads the page | string (content: HTML) |
 * | `markdown()` | the page as clean markdown | string |
 * | `click(sel)`, `hover(sel)`, `focus(sel)` | real mouse or focus on the first match | null |
 * | `type(sel, text)` | focuses the element and types the text key by key | null |
 * | `fill(sel, value)` | sets an input's value and fires input/change | null |
 * | `press(key)`, `keyboard.press(key)`, `keyboard.type(text)` | keyboard | null |
 * | `select(sel, ...values)` | chooses options of a `<select>` | string[] |
 * | `scroll(direction = 'down', sel?)` | scrolls the window or an element by one screen | null |
 * | `waitForSelector(sel, {timeout?, visible?})`, `waitForTimeout(ms)`, `waitForNavigation({timeout?})` | waits | true / null |
 * | `evaluate(fn, ...args)` | runs `fn` in the live page (args and result as JSON) | its result |
 * | `$eval(sel, fn, ...args)`, `$$eval(sel, fn, ...args)` | `fn(element)` / `fn(elements)` in the page | its result |
 * | `textContent(sel)`, `innerText(sel)`, `getAttribute(sel, name)`, `exists(sel)` | reads one element | string / null / boolean |
 * | `screenshot({fullPage?})` | captures the page into the blob store | URL |
 * | `goBack()`, `goForward()`, `reload()` | history | `{url}` |
 * | `cookies()` | cookies of the session | array |
 */
import type { KeyInput, Page } from 'puppeteer-core';
import type { BlobStore } from '../blobs.ts';
import { TrawlError } from '../errors.ts';
import { cleanHtml } from '../../parsers/html/clean.ts';

/** What a call needs besides the page. */
export interface LivePage {
  page: Page;
  blobs: BlobStore;
  /** Epoch ms by which the current call must end. */
  deadline: number;
}

/** A failure of one page call, shown to the user code as an Error with this message. */
export class PageCallError extends Error {}

const BLOB_TTL_MS = 24 * 3600 * 1000;

const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || v.length === 0) throw new PageCallError(`${what} must be a non-empty string`);
  return v;
};

/** The first element matching `selector`, or a PageCallError naming it. */
async function element(page: Page, selector: unknown) {
  const h = await page.$(str(selector, 'selector'));
  if (!h) throw new PageCallError(`no element matches "${String(selector)}"`);
  return h;
}

/** Evaluates `(${fn})(...args)` in the live page (Runtime.evaluate: page CSP does not apply). */
function evaluateSource(page: Page, source: string, args: unknown[]): Promise<unknown> {
  return page.evaluate(`(${source})(...${JSON.stringify(args ?? [])})`);
}

/** The page as markdown (whole page, not only main content). */
export async function pageMarkdown(page: Page): Promise<string> {
  const { htmlToMarkdown } = await import('../../formats/markdown/convert.ts');
  const html = cleanHtml(await page.content(), { url: page.url(), onlyMainContent: false });
  return htmlToMarkdown(html, { removeBase64Images: true });
}

/**
 * Runs one call of the `page` API.
 * @throws PageCallError for bad arguments and failed calls; TrawlError BAD_REQUEST for an unknown call
 */
export async function callPage(live: LivePage, method: string, args: unknown[]): Promise<unknown> {
  const { page } = live;
  const left = () => Math.max(1, live.deadline - Date.now());
  const opt = (i: number) => (args[i] && typeof args[i] === 'object' ? (args[i] as Record<string, unknown>) : {});
  const timeout = (i: number) => Math.min(left(), Number(opt(i).timeout) > 0 ? Number(opt(i).timeout) : left());
  switch (method) {
    case 'goto': {
      const res = await page.goto(str(args[0], 'url'), { waitUntil: 'domcontentloaded', timeout: timeout(1) });
      return { url: page.url(), status: res?.status() ?? null };
    }
    case 'url':
      return page.url();
    case 'title':
      return page.title();
    case 'content':
      return page.content();
    case 'markdown':
      return pageMarkdown(page);
    case 'click':
      await (await element(page, args[0])).click();
      return null;
    case 'hover':
      await (await element(page, args[0])).hover();
      return null;
    case 'focus':
      await (await element(page, args[0])).focus();
      return null;
    case 'type': {
      await (await element(page, args[0])).focus();
      await page.keyboard.type(String(args[1] ?? ''));
      return null;
    }
    case 'fill': {
      const h = await element(page, args[0]);
      await h.evaluate((el, value) => {
        const input = el as HTMLInputElement;
        input.focus();
        input.value = value;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }, String(args[1] ?? ''));
      return null;
    }
    case 'press':
      await page.keyboard.press(str(args[0], 'key') as KeyInput);
      return null;
    case 'keyboardType':
      await page.keyboard.type(String(args[0] ?? ''));
      return null;
    case 'select':
      return page.select(str(args[0], 'selector'), ...args.slice(1).map(String));
    case 'scroll': {
      const dir = args[0] === 'up' ? -1 : 1;
      const ok = await page.evaluate(
        (sel, d) => {
          const target = sel ? document.querySelector(sel) : null;
          if (sel && !target) return false;
          if (target) target.scrollBy({ top: d * (target.clientHeight || innerHeight) });
          else scrollBy({ top: d * innerHeight });
          return true;
        },
        typeof args[1] === 'string' ? args[1] : null,
        dir,
      );
      if (!ok) throw new PageCallError(`no element matches "${String(args[1])}"`);
      return null;
    }
    case 'waitForSelector':
      await page.waitForSelector(str(args[0], 'selector'), { timeout: timeout(1), visible: opt(1).visible === true });
      return true;
    case 'waitForTimeout':
      await Bun.sleep(Math.min(left(), Math.max(0, Number(args[0]) || 0)));
      return null;
    case 'waitForNavigation':
      await page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: timeout(0) });
      return { url: page.url() };
    case 'evaluate':
      return evaluateSource(page, str(args[0], 'function'), (args[1] as unknown[]) ?? []);
    case '$eval':
    case '$$eval': {
      // The function's source is pasted into the expression (no eval inside the page: CSP may forbid it).
      const sel = JSON.stringify(str(args[0], 'selector'));
      const fn = str(args[1], 'function');
      const rest = JSON.stringify((args[2] as unknown[]) ?? []);
      const target =
        method === '$eval'
          ? `(() => { const el = document.querySelector(${sel}); if (!el) throw new Error('no element matches ' + ${JSON.stringify(JSON.stringify(args[0]))}); return el; })()`
          : `[...document.querySelectorAll(${sel})]`;
      return page.evaluate(`(${fn})(${target}, ...${rest})`);
    }
    case 'textContent':
    case 'innerText':
    case 'getAttribute':
    case 'exists':
      return page.evaluate(
        (m, sel, name) => {
          const el = document.querySelector(sel) as HTMLElement | null;
          if (m === 'exists') return el !== null;
          if (!el) return null;
          return m === 'textContent' ? el.textContent : m === 'innerText' ? el.innerText : el.getAttribute(name ?? '');
        },
        method,
        str(args[0], 'selector'),
        typeof args[1] === 'string' ? args[1] : null,
      );
    case 'screenshot': {
      const bytes = await page.screenshot({ type: 'png', fullPage: opt(0).fullPage === true });
      return live.blobs.url(await live.blobs.put(bytes, 'image/png', BLOB_TTL_MS));
    }
    case 'goBack':
    case 'goForward':
    case 'reload': {
      const o = { waitUntil: 'domcontentloaded' as const, timeout: left() };
      await (method === 'goBack' ? page.goBack(o) : method === 'goForward' ? page.goForward(o) : page.reload(o));
      return { url: page.url() };
    }
    case 'cookies':
      return (await page.browserContext().cookies()).map(({ name, value, domain, path, expires, httpOnly, secure }) => ({ name, value, domain, path, expires, httpOnly, secure }));
    default:
      throw new TrawlError('BAD_REQUEST', `page.${method} is not part of the interact page API`);
  }
}
