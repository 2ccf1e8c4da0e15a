/**
 * Runs interact `code` (compat.md §5; issue 3 scope 7) without giving it the Trawl process: the code
 * is compiled and run inside a throw-away sandbox page in its own browser context (an `about:blank`
 * document), never by `eval` in Trawl. The sandbox has no network: its context sends everything to a
 * dead proxy (loopback included, so pop-ups and frames cannot reach local services either), and its
 * page refuses every request and runs offline. Its `page`
 * object is a proxy: each method call crosses to Trawl through one exposed binding and runs on the
 * session's live page (page-api.ts). `console.log/info/debug` go to `stdout`, `console.warn/error`
 * to `stderr`; a value the code returns is printed as the last stdout line. Past the time limit the
 * sandbox page is closed (which stops even a busy loop) and the run reports `killed`.
 *
 * Exit codes: 0 finished, 1 threw (the error goes to stderr), 137 killed at the time limit.
 */
import type { BrowserContext, Page } from 'puppeteer-core';
import { PageCallError } from './page-api.ts';

export interface CodeResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  killed: boolean;
  /** stdout or stderr was cut at `MAX_OUTPUT_CHARS`. */
  truncated: boolean;
}

/** Where the sandbox context's traffic goes: the discard port on loopback, where nothing answers. */
const DEAD_PROXY = 'http://127.0.0.1:9';

/** Longest stdout or stderr kept, characters. */
export const MAX_OUTPUT_CHARS = 1_000_000;

/** The script run in the sandbox: builds `page` and `console`, compiles the code, awaits it. */
const HARNESS = `async (code) => {
  const out = { stdout: [], stderr: [] };
  const fmt = (v) => {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return v.stack || String(v);
    if (v === undefined) return 'undefined';
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return String(v);
    try { return JSON.stringify(v) ?? String(v); } catch { return String(v); }
  };
  const write = (stream) => (...a) => { const line = a.map(fmt).join(' '); out[stream].push(line); globalThis.__trawlLog(stream, line); };
  const con = { log: write('stdout'), info: write('stdout'), debug: write('stdout'), trace: write('stdout'), warn: write('stderr'), error: write('stderr') };
  globalThis.console = con;
  const call = async (method, ...args) => {
    const r = JSON.parse(await globalThis.__trawlCall(method, JSON.stringify(args)));
    if (r.error) throw new Error(r.error);
    return r.value;
  };
  const src = (f) => (typeof f === 'function' ? f.toString() : String(f));
  const methods = ['goto', 'url', 'title', 'content', 'markdown', 'click', 'hover', 'focus', 'type', 'fill', 'press', 'select', 'scroll',
    'waitForSelector', 'waitForTimeout', 'waitForNavigation', 'textContent', 'innerText', 'getAttribute', 'exists', 'screenshot',
    'goBack', 'goForward', 'reload', 'cookies'];
  const page = Object.fromEntries(methods.map((m) => [m, (...a) => call(m, ...a)]));
  page.evaluate = (f, ...a) => call('evaluate', src(f), a);
  page.$eval = (s, f, ...a) => call('$eval', s, src(f), a);
  page.$$eval = (s, f, ...a) => call('$$eval', s, src(f), a);
  page.keyboard = { press: (k) => call('press', k), type: (t) => call('keyboardType', t) };
  const AsyncFunction = (async () => {}).constructor;
  let fn;
  try { fn = new AsyncFunction('page', 'console', code); } catch (e) { out.stderr.push(String(e && e.name ? e.name + ': ' + e.message : e)); return { ...out, exitCode: 1 }; }
  try {
    const value = await fn(page, con);
    if (value !== undefined) out.stdout.push(fmt(value));
    return { ...out, exitCode: 0 };
  } catch (e) {
    out.stderr.push(e instanceof Error ? (e.name + ': ' + e.message) : fmt(e));
    return { ...out, exitCode: 1 };
  }
}`;

/**
 * Runs `code` against the live page through `call`.
 * @param context  the session's browser context (the sandbox context opens in its browser and closes after)
 * @param call     runs one `page` API call on the live page (page-api.ts `callPage`)
 * @param timeoutMs time limit, ms
 */
export async function runCode(
  context: BrowserContext,
  code: string,
  timeoutMs: number,
  call: (method: string, args: unknown[]) => Promise<unknown>,
): Promise<CodeResult> {
  const streamed = { stdout: [] as string[], stderr: [] as string[] };
  let sandboxContext: BrowserContext | undefined;
  let sandbox: Page | undefined;
  let finished = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    sandboxContext = await context.browser().createBrowserContext({ proxyServer: DEAD_PROXY, proxyBypassList: ['<-loopback>'] });
    sandbox = await sandboxContext.newPage();
    sandbox.on('popup', (p) => void p?.close().catch(() => undefined));
    await sandbox.setOfflineMode(true);
    await sandbox.setRequestInterception(true);
    sandbox.on('request', (r) => void (r.url() === 'about:blank' ? r.continue() : r.abort('blockedbyclient')).catch(() => undefined));
    sandbox.on('dialog', (d) => void d.dismiss().catch(() => undefined));
    await sandbox.exposeFunction('__trawlLog', (stream: string, line: string) => {
      if (!finished && (stream === 'stdout' || stream === 'stderr')) streamed[stream].push(String(line));
    });
    await sandbox.exposeFunction('__trawlCall', async (method: string, argsJson: string) => {
      if (finished) return JSON.stringify({ error: 'the run has ended' });
      try {
        const value = await call(String(method), JSON.parse(String(argsJson)) as unknown[]);
        return JSON.stringify({ value: value === undefined ? null : value });
      } catch (e) {
        const message = e instanceof PageCallError || e instanceof Error ? e.message.split('\n')[0] : String(e);
        return JSON.stringify({ error: `page.${method} failed: ${message}` });
      }
    });
    const run = sandbox.evaluate(`(${HARNESS})(${JSON.stringify(code)})`) as Promise<{ stdout: string[]; stderr: string[]; exitCode: number }>;
    const expired = new Promise<'killed'>((resolve) => (timer = setTimeout(() => resolve('killed'), timeoutMs)));
    const outcome = await Promise.race([run.catch((e: Error) => ({ stdout: [], stderr: [`Error: ${e.message.split('\n')[0]}`], exitCode: 1 })), expired]);
    finished = true;
    if (outcome === 'killed') {
      return result(streamed.stdout, [...streamed.stderr, `Killed: the code ran longer than ${timeoutMs} ms.`], 137, true);
    }
    return result(outcome.stdout, outcome.stderr, outcome.exitCode, false);
  } finally {
    finished = true;
    clearTimeout(timer);
    await sandboxContext?.close().catch(() => undefined);
  }
}

function result(stdout: string[], stderr: string[], exitCode: number, killed: boolean): CodeResult {
  let truncated = false;
  const join = (lines: string[]) => {
    const text = lines.map((l) => `${l}\n`).join('');
    if (text.length <= MAX_OUTPUT_CHARS) return text;
    truncated = true;
    return `${text.slice(0, MAX_OUTPUT_CHARS)}\n[output truncated]\n`;
  };
  return { stdout: join(stdout), stderr: join(stderr), exitCode, killed, truncated };
}
