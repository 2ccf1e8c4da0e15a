#!/usr/bin/env bun
/**
 * Browser scrape benchmark (issue 3): latency p50/p95 and pages per second at concurrency 1 and 8 on
 * a fixture site of client-rendered pages (bench/browser/site.ts), for Trawl (`trawl serve`, POST
 * /v2/scrape, markdown, cache off) and, in the same run, for Crawlee's PuppeteerCrawler driving the
 * Chromium or another (`--crawlee label=path`) with the same wait rule (DOMContentLoaded, then network quiet for
 * 500 ms, at most 7 s) reading the rendered HTML. Crawlee is optional: it runs when
 * `@crawlee/puppeteer` (3.18.1, a devDependency; it drives the `puppeteer-core` Trawl already has)
 * can be imported, else its rows say "not installed". Crawlee runs with its default shared browser
 * context per browser (its incognito mode needs the full `puppeteer` package); Trawl opens a fresh
 * incognito context per scrape and intercepts requests (SSRF guard, ad blocking).
 *
 *   bun bench/browser/run.ts [--pages 200] [--chromium <path>] [--pool 2] [--only trawl|crawlee]
 *                            [--rounds 3] [--root before=/tmp/trawl-before --root after=.] [--trawl-log /tmp/logs]
 *                            [--crawlee crawlee=/usr/bin/chromium --crawlee crawlee-shell=/usr/lib/chromium/chromium-headless-shell]
 *
 * Chromium: `--chromium` sets it for every side; without it each Trawl checkout uses its own default
 * (core/config.ts: the headless shell when installed, else /usr/bin/chromium) and Crawlee runs
 * /usr/bin/chromium. `--crawlee label=path` (repeatable) runs one Crawlee side per Chromium, each
 * Trawl side's ratios are printed against each of them.
 *
 * On a shared, loaded machine one run says little: `--rounds N` runs every side N times, alternating
 * them (each round in a rotated order), and prints each Trawl side's ratios to Crawlee per round and
 * their medians. `--root label=dir` (repeatable) benchmarks the Trawl checkout in `dir` under `label`,
 * so a change is measured against a copy of the code before it in the same run. `--trawl-log dir`
 * runs Trawl at debug level with its log in `dir/<label>-<round>.log` and prints where a browser
 * scrape's time went (median ms per phase of the engine's "browser scrape done" lines).
 *
 * Every row also gives the CPU time per measured page (from /proc, so it holds on a loaded machine
 * where the wall-clock figures swing): `server` is the Trawl server process (for Crawlee: the bench
 * process, i.e. Crawlee, the fixture site and the client), `chromium` every process under it (the
 * browsers with their renderers, exited ones included through their parents' cutime).
 *
 * Needs no network beyond 127.0.0.1. Prints a table and a JSON summary on the last line.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startBenchSite } from './site.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '200' },
    chromium: { type: 'string' },
    crawlee: { type: 'string', multiple: true },
    pool: { type: 'string', default: '2' },
    only: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    root: { type: 'string', multiple: true },
    'trawl-log': { type: 'string' },
  },
});
const ROUNDS = Math.max(1, Number(values.rounds));
const ROOTS: [string, string][] = (values.root ?? [`trawl=${join(import.meta.dir, '..', '..')}`]).map((r) => {
  const at = r.indexOf('=');
  return at > 0 ? [r.slice(0, at), r.slice(at + 1)] : ['trawl', r];
});
const LOG_DIR = values['trawl-log'];
if (LOG_DIR) mkdirSync(LOG_DIR, { recursive: true });
const PAGES = Number(values.pages);
const CHROMIUM = values.chromium;
const CRAWLEES: [string, string][] = (values.crawlee ?? [`crawlee=${CHROMIUM ?? '/usr/bin/chromium'}`]).map((r) => {
  const at = r.indexOf('=');
  return at > 0 ? [r.slice(0, at), r.slice(at + 1)] : ['crawlee', r];
});
const POOL = Number(values.pool);
const LEVELS = [1, 8];

export interface RunResult {
  tool: string;
  round: number;
  concurrency: number;
  pages: number;
  failures: number;
  p50Ms: number;
  p95Ms: number;
  pagesPerSecond: number;
  /** CPU ms per measured page: the Trawl server process (Crawlee: the bench process, Crawlee and the site). */
  serverCpuMs?: number;
  /** CPU ms per measured page of the Chromium processes (every descendant, exited ones included). */
  chromiumCpuMs?: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

let round = 0;

function summarize(tool: string, concurrency: number, latencies: number[], failures: number, wallMs: number): RunResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    tool,
    round,
    concurrency,
    pages: latencies.length,
    failures,
    p50Ms: Math.round(pct(sorted, 50)),
    p95Ms: Math.round(pct(sorted, 95)),
    pagesPerSecond: Number((latencies.length / (wallMs / 1000)).toFixed(2)),
  };
}

/** utime+stime (and, with `children`, cutime+cstime) of one process from /proc, ms; 0 once gone. */
function procCpuMs(pid: number, children: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields after the name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14), in clock ticks (100/s)
    const ticks = Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
    return ticks * 10;
  } catch {
    return 0;
  }
}

/**
 * CPU ms of every descendant of `root` so far: their own time plus what their exited children used
 * (Chromium's zygote reaps its renderers, so a closed page's CPU moves into the zygote's cutime).
 */
function descendantsCpuMs(root: number): number {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  let total = 0;
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        total += procCpuMs(pid, true);
        break;
      }
    }
  }
  return total;
}

/** Snapshot of the CPU used so far by a side's own process and by its Chromium processes, ms. */
function cpuSnapshot(serverPid: number | undefined): { server: number; chromium: number } {
  const self = process.cpuUsage();
  return {
    server: serverPid ? procCpuMs(serverPid, false) : (self.user + self.system) / 1000,
    chromium: descendantsCpuMs(serverPid ?? process.pid),
  };
}

const site = startBenchSite();
const results: RunResult[] = [];

// ---------------------------------------------------------------------------------------------
// Trawl: one `trawl serve` process.

async function benchTrawl(label: string, root: string): Promise<void> {
  const logFile = LOG_DIR ? join(LOG_DIR, `${label}-${round}.log`) : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-bench-browser-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const proc = Bun.spawn([process.execPath, join(root, 'bin', 'trawl.ts'), 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      PORT: String(port),
      HOST: '127.0.0.1',
      TRAWL_DATA_DIR: dataDir,
      TRAWL_AUTH: 'off',
      TRAWL_ALLOW_PRIVATE_TARGETS: 'true',
      TRAWL_LOG_LEVEL: logFile ? 'debug' : 'warn',
      ...(CHROMIUM ? { CHROMIUM_PATH: CHROMIUM } : {}),
      TRAWL_BROWSER_POOL_SIZE: String(POOL),
      TRAWL_WORKER_CONCURRENCY: '8',
      TRAWL_TEAM_CONCURRENCY: '16',
    },
    stdout: logFile ? Bun.file(logFile) : 'ignore',
    stderr: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (await fetch(`${base}/health`).then((r) => r.ok, () => false)) break;
      if (i > 600) throw new Error('trawl did not start');
      await Bun.sleep(100);
    }
    const scrape = async (i: number): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(`${base}/v2/scrape`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${site.url(i % PAGES)}?r=${i}`, formats: ['markdown'], maxAge: 0, storeInCache: false }),
      });
      const body = (await res.json()) as { success?: boolean; data?: { markdown?: string } };
      if (!res.ok || !body.data?.markdown?.includes('Harbour notice')) {
        throw new Error(`HTTP ${res.status} ${JSON.stringify(body).slice(0, 160)}`);
      }
      return performance.now() - t0;
    };
    // Warm-up: browsers launched, code loaded.
    await Promise.all(Array.from({ length: 8 }, (_, i) => scrape(100_000 + i).catch(() => 0)));
    for (const c of LEVELS) {
      const before = cpuSnapshot(proc.pid);
      const r = await drive(label, c, scrape);
      const after = cpuSnapshot(proc.pid);
      r.serverCpuMs = Math.round((after.server - before.server) / Math.max(1, r.pages));
      r.chromiumCpuMs = Math.round((after.chromium - before.chromium) / Math.max(1, r.pages));
      results.push(r);
    }
  } finally {
    proc.kill('SIGTERM');
    await Promise.race([proc.exited, Bun.sleep(15_000)]);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs PAGES scrapes with `concurrency` workers. */
async function drive(tool: string, concurrency: number, one: (i: number) => Promise<number>): Promise<RunResult> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < PAGES) {
        const i = next++;
        try {
          latencies.push(await one(concurrency * 1_000_000 + i));
        } catch (e) {
          if (failures++ < 3) console.error(`${tool} c=${concurrency}: ${(e as Error).message}`);
        }
      }
    }),
  );
  return summarize(tool, concurrency, latencies, failures, performance.now() - t0);
}

// ---------------------------------------------------------------------------------------------
// Crawlee's PuppeteerCrawler with puppeteer-core and the same Chromium.

async function benchCrawlee(label: string, chromium: string): Promise<void> {
  let crawlee: any;
  try {
    crawlee = await import('@crawlee/puppeteer' as string);
  } catch {
    for (const c of LEVELS) results.push({ tool: `${label} (not installed)`, round, concurrency: c, pages: 0, failures: 0, p50Ms: NaN, p95Ms: NaN, pagesPerSecond: NaN });
    return;
  }
  const puppeteer = await import('puppeteer-core');
  const storage = mkdtempSync(join(tmpdir(), 'crawlee-bench-'));
  process.env.CRAWLEE_STORAGE_DIR = storage; // Crawlee reads its storage location from the environment
  try {
    for (const c of LEVELS) {
      const latencies: number[] = [];
      let failures = 0;
      const started = new Map<string, number>();
      // Pages per second over the measured pages only (from the first start to the last end).
      let first = Infinity;
      let last = 0;
      // CPU from the first measured page's start to the last one's end (Crawlee closes its browsers
      // before run() returns, so the end is taken in the handler).
      let before: ReturnType<typeof cpuSnapshot> | undefined;
      let after: ReturnType<typeof cpuSnapshot> | undefined;
      const config = new crawlee.Configuration({ persistStorage: false, purgeOnStart: true });
      const crawler = new crawlee.PuppeteerCrawler(
        {
          minConcurrency: c,
          maxConcurrency: c,
          maxRequestRetries: 0,
          requestHandlerTimeoutSecs: 60,
          navigationTimeoutSecs: 60,
          useSessionPool: false,
          launchContext: {
            launcher: puppeteer.default,
            useIncognitoPages: false, // true needs the full `puppeteer` package (Crawlee imports it for incognito contexts)
            launchOptions: { executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] },
          },
          browserPoolOptions: { maxOpenPagesPerBrowser: 4, retireBrowserAfterPageCount: 200 },
          preNavigationHooks: [
            async ({ request }: any, gotoOptions: any) => {
              if (!before && !String(request.uniqueKey).startsWith('w')) before = cpuSnapshot(undefined);
              started.set(request.uniqueKey, performance.now());
              gotoOptions.waitUntil = 'domcontentloaded';
            },
          ],
          async requestHandler({ page, request }: any) {
            await page.waitForNetworkIdle({ idleTime: 500, timeout: 7_000 }).catch(() => undefined);
            const html: string = await page.content();
            if (!html.includes('Harbour notice')) throw new Error('not rendered');
            const begin = started.get(request.uniqueKey)!;
            if (!String(request.uniqueKey).startsWith('w')) {
              latencies.push(performance.now() - begin);
              first = Math.min(first, begin);
              last = Math.max(last, performance.now());
              if (latencies.length + failures >= PAGES) after = cpuSnapshot(undefined);
            }
          },
          async failedRequestHandler() {
            failures++;
          },
        },
        config,
      );
      const urls = Array.from({ length: PAGES }, (_, i) => ({ url: `${site.url(i % PAGES)}?c=${c}&r=${i}&round=${round}`, uniqueKey: `${round}-${c}-${i}` }));
      // 8 warm-up pages first (browsers launched), not measured.
      await crawler.run([...Array.from({ length: 8 }, (_, i) => ({ url: `${site.url(i)}?warm=${c}-${i}&round=${round}`, uniqueKey: `w${round}-${c}-${i}` })), ...urls]);
      const r = summarize(label, c, latencies, failures, last - first);
      if (before && after) {
        r.serverCpuMs = Math.round((after.server - before.server) / Math.max(1, r.pages));
        r.chromiumCpuMs = Math.round((after.chromium - before.chromium) / Math.max(1, r.pages));
      }
      results.push(r);
      await crawler.teardown?.();
    }
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
}

const sides: { label: string; run: () => Promise<void> }[] = [
  ...(values.only === 'crawlee' ? [] : ROOTS.map(([label, root]) => ({ label, run: () => benchTrawl(label, root) }))),
  ...(values.only === 'trawl' ? [] : CRAWLEES.map(([label, chromium]) => ({ label, run: () => benchCrawlee(label, chromium) }))),
];
for (round = 1; round <= ROUNDS; round++) {
  // Rotate the order every round, so no side always runs first (or right after the same neighbour).
  const shift = (round - 1) % sides.length;
  for (const side of [...sides.slice(shift), ...sides.slice(0, shift)]) await side.run();
}
site.stop();

console.log(
  `\nBrowser scrape benchmark: ${PAGES} client-rendered pages per run, Trawl on ${CHROMIUM ?? 'its default Chromium'}, ${CRAWLEES.map(([l, p]) => `${l} on ${p}`).join(', ')}, pool of ${POOL} browsers, ${ROUNDS} round(s)\n`,
);
console.log('round tool            conc  pages  fail   p50 ms   p95 ms   pages/s  cpu ms/page: server chromium');
for (const r of results) {
  console.log(
    `${String(r.round).padStart(5)} ${r.tool.padEnd(16)}${String(r.concurrency).padStart(4)}${String(r.pages).padStart(7)}${String(r.failures).padStart(6)}${String(r.p50Ms).padStart(9)}${String(r.p95Ms).padStart(9)}${String(r.pagesPerSecond).padStart(10)}${String(r.serverCpuMs ?? '-').padStart(16)}${String(r.chromiumCpuMs ?? '-').padStart(9)}`,
  );
}
printRatios();
if (LOG_DIR) printPhases();
console.log(JSON.stringify({ pages: PAGES, pool: POOL, rounds: ROUNDS, chromium: CHROMIUM, crawlee: Object.fromEntries(CRAWLEES), results }));

/** Per round: each Trawl side's pages/s and p50 over Crawlee's in the same round; then the medians. */
function printRatios(): void {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
  const find = (tool: string, r: number, c: number) => results.find((x) => x.tool === tool && x.round === r && x.concurrency === c);
  for (const [crawlee] of CRAWLEES) {
  console.log(`\nratios to ${crawlee} in the same round (pages/s: higher is better; p50: lower is better)`);
  console.log('tool            conc  pages/s ratio per round       median   p50 ratio per round          median');
  for (const [label] of ROOTS) {
    for (const c of LEVELS) {
      const speed: number[] = [];
      const p50: number[] = [];
      for (let r = 1; r <= ROUNDS; r++) {
        const t = find(label, r, c);
        const k = find(crawlee, r, c);
        if (!t || !k) continue;
        speed.push(t.pagesPerSecond / k.pagesPerSecond);
        p50.push(t.p50Ms / k.p50Ms);
      }
      if (!speed.length) continue;
      const f = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ').padEnd(26);
      console.log(`${label.padEnd(16)}${String(c).padStart(4)}  ${f(speed)}${median(speed).toFixed(2).padStart(6)}   ${f(p50)}${median(p50).toFixed(2).padStart(9)}`);
    }
  }
  }
}

/** Median ms per phase of the browser engine's scrapes (its debug log), per Trawl side. */
function printPhases(): void {
  console.log('\nwhere a browser scrape went (median ms per phase, all rounds and levels; "pipeline" is the whole scrape job)');
  for (const [label] of ROOTS) {
    const phases = new Map<string, number[]>();
    for (let r = 1; r <= ROUNDS; r++) {
      let text = '';
      try {
        text = readFileSync(join(LOG_DIR!, `${label}-${r}.log`), 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) {
        if (!line.startsWith('{')) continue;
        const rec = JSON.parse(line) as { msg?: string; ms?: number | Record<string, number> };
        const add = (k: string, v: number) => phases.set(k, [...(phases.get(k) ?? []), v]);
        if (rec.msg === 'browser scrape done' && rec.ms && typeof rec.ms === 'object') for (const [k, v] of Object.entries(rec.ms)) add(k, v);
        if (rec.msg === 'scraped' && typeof rec.ms === 'number') add('pipeline', rec.ms);
      }
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    console.log(`${label}: ${[...phases].map(([k, v]) => `${k} ${med(v)}`).join(', ')}`);
  }
}
process.exit(0);
