#!/usr/bin/env bun
/**
 * Crawl benchmark: the 1,169-page postgresql-doc-15 manual (apt-get install -y postgresql-doc-15),
 * served on 127.0.0.1 with a generated sitemap, crawled to markdown (no browser) by
 *   1. Trawl: one `trawl serve` process (embedded PGlite, in-process queue), or with
 *      `--distributed` an `api` + two `worker` processes on PostgreSQL and Redis;
 *   2. Crawlee's CheerioCrawler doing the same crawl (fetch + cheerio parse + turndown) in its own
 *      process (bench/crawl/crawlee-run.ts), when `@crawlee/cheerio` (a devDependency) is installed.
 * Each side crawls the site twice in one process: round 1 is a cold start (the JIT compiles
 * everything, and for Trawl also the embedded PostgreSQL's WebAssembly, as it runs), round 2 the same
 * crawl again in the warmed-up process, which is how a long-running service works (every page is
 * fetched again: crawls do not read the scrape cache, and the fetch count per round is reported).
 * The two sides alternate round by round (both processes stay up), so each pair of crawls runs under
 * the same machine conditions. After each crawl the bench waits until the crawling processes are
 * quiet and reports how long that took and the CPU used meanwhile (Trawl writes its search index
 * then), with a second ratio counting that time.
 * Prints pages per second for each round, the CPU seconds of the crawling processes and their peak
 * RSS (VmHWM), then one JSON line. `--rounds 1` runs the cold crawl only.
 *
 *   bun bench/crawl/pg-docs.ts
 *   bun bench/crawl/pg-docs.ts --distributed --team-concurrency 40
 *   bun bench/crawl/pg-docs.ts --full-page     # whole pages to markdown, as Crawlee's side does
 *   bun bench/crawl/pg-docs.ts --skip-crawlee --profile /tmp/prof   # CPU profile of trawl serve
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pgDocsInstalled, servePgDocs } from '../../test/fixtures/crawl-site/pg-docs.ts';
import { startCluster, freePort } from '../../test/crawl/cluster.ts';

const { values: args } = parseArgs({
  options: {
    distributed: { type: 'boolean', default: false },
    /** TRAWL_TEAM_CONCURRENCY and TRAWL_WORKER_CONCURRENCY of the Trawl processes (default: Trawl's own, 20 and 20). */
    'team-concurrency': { type: 'string' },
    'worker-concurrency': { type: 'string' },
    /** TRAWL_CONTENT_THREADS of the Trawl processes (default: Trawl's own, cores - 1). */
    'content-threads': { type: 'string' },
    'skip-crawlee': { type: 'boolean', default: false },
    /** Crawls per side in one process: 1 = cold start only; 2 (default) adds a warmed-up crawl. */
    rounds: { type: 'string', default: '2' },
    /**
     * Convert whole pages (onlyMainContent: false), the work Crawlee's side does (turndown of <body>).
     * Without it Trawl also finds each page's main content (its default), which Crawlee does not.
     */
    'full-page': { type: 'boolean', default: false },
    /** Write a markdown CPU profile of the embedded `trawl serve` to this directory (bun --cpu-prof-md). */
    profile: { type: 'string' },
  },
});

const ROOT = join(import.meta.dir, '..', '..');
const ROUNDS = Math.max(1, Number(args.rounds) || 1);

/** One crawl of the site, by either side. */
interface Round {
  round: number;
  pages: number;
  seconds: number;
  /** CPU seconds (user + system) of the crawling processes during the crawl. */
  cpuSeconds: number;
  /** Requests the site answered during the crawl (pages, robots.txt, sitemap). */
  fetches: number;
  pagesPerSecond: number;
  /** CPU seconds per thread of the embedded process during the crawl (`bun` is the main thread). */
  threadCpuSeconds?: Record<string, number>;
  /** Seconds from the end of the crawl until the crawling processes were quiet (see settle). */
  settleSeconds?: number;
  /** CPU seconds they used in that time. */
  settleCpuSeconds?: number;
}

/** Requests the site has answered so far. */
function fetchCount(): number {
  let n = 0;
  for (const v of site.hits.values()) n += v;
  return n;
}

/** Peak resident memory of a process, MB (VmHWM). */
function peakRssMb(pid: number): number {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** CPU time a process has used (user + system), seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds per thread of a process (thread name from /proc: `bun`, `Bun Worker` ...), largest first. */
function threadCpuSeconds(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
      if (cpu >= 0.1) out[`${name}#${tid}`] = Math.round(cpu * 10) / 10;
    } catch {}
  }
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}

async function waitHealthy(base: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {}
    await Bun.sleep(100);
  }
  throw new Error(`${base} did not start`);
}

/** Runs one Trawl crawl through the HTTP API; returns pages and seconds. */
async function crawlWithTrawl(base: string, start: string): Promise<{ pages: number; seconds: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}/v2/crawl`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: start, limit: 5000, scrapeOptions: { formats: ['markdown'], onlyMainContent: !args['full-page'] } }),
  });
  const { id } = (await res.json()) as { id: string };
  for (;;) {
    const s = (await (await fetch(`${base}/v2/crawl/${id}?limit=1`)).json()) as { status: string; completed: number };
    if (s.status !== 'scraping') return { pages: s.completed, seconds: (performance.now() - t0) / 1000 };
    await Bun.sleep(50); // a finer poll than this would be a measurable load of its own
  }
}

/** Per-thread CPU seconds between two readings of threadCpuSeconds, threads that used 0.1 s or more. */
function threadDelta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) {
    const d = Math.round((v - (before[k] ?? 0)) * 10) / 10;
    if (d >= 0.1) out[k] = d;
  }
  return out;
}

/**
 * Waits after a crawl until the crawling processes are quiet: less than 5% of a core used over
 * 500 ms (capped at 60 s). What they do meanwhile is work the crawl left behind (Trawl: the search
 * index, written once no page arrives; core/search/index-feed.ts).
 * @returns seconds from the call to the start of the quiet 500 ms, and the CPU seconds used until then
 */
async function settle(cpu: () => number): Promise<{ settleSeconds: number; settleCpuSeconds: number }> {
  const t0 = performance.now();
  const cpu0 = cpu();
  const samples: { t: number; cpu: number }[] = [{ t: t0, cpu: cpu0 }];
  for (;;) {
    await Bun.sleep(100);
    samples.push({ t: performance.now(), cpu: cpu() });
    const window = samples.at(-6);
    const last = samples.at(-1)!;
    if ((window && last.cpu - window.cpu < 0.025) || last.t - t0 > 60_000) {
      const quietFrom = window ?? last;
      return { settleSeconds: Math.round((quietFrom.t - t0) / 10) / 100, settleCpuSeconds: Math.round((quietFrom.cpu - cpu0) * 100) / 100 };
    }
  }
}

/** One side of the comparison, kept running across rounds so that the rounds can alternate. */
interface Side {
  /** Crawls the site once more (round numbers start at 1). */
  round(round: number): Promise<Round>;
  /** Stops the processes; returns what the report says about this side. */
  close(): Promise<Record<string, unknown>>;
}

/** A Trawl crawl through `base`, then the wait until quiet; `cpu` reads the crawling processes' CPU seconds. */
async function trawlRound(round: number, base: string, start: string, cpu: () => number, threads?: () => Record<string, number>): Promise<Round> {
  const cpu0 = cpu();
  const threads0 = threads?.();
  const fetches0 = fetchCount();
  const r = await crawlWithTrawl(base, start);
  const crawlCpu = cpu() - cpu0;
  const threadCpu = threads ? { threadCpuSeconds: threadDelta(threads0!, threads()) } : {};
  return {
    round, ...r, cpuSeconds: Math.round(crawlCpu * 100) / 100, fetches: fetchCount() - fetches0, pagesPerSecond: r.pages / r.seconds,
    ...threadCpu, ...(await settle(cpu)),
  };
}

async function startTrawl(start: string): Promise<Side> {
  const env: Record<string, string> = {};
  if (args['team-concurrency'] !== undefined) env.TRAWL_TEAM_CONCURRENCY = args['team-concurrency'];
  if (args['worker-concurrency'] !== undefined) env.TRAWL_WORKER_CONCURRENCY = args['worker-concurrency'];
  if (args['content-threads'] !== undefined) env.TRAWL_CONTENT_THREADS = args['content-threads'];
  if (args.distributed) {
    const cluster = await startCluster(2, env);
    const cpu = () => cluster.workers.reduce((a, w) => a + cpuSeconds(w.pid), 0);
    return {
      round: (n) => trawlRound(n, cluster.base, start, cpu),
      async close() {
        const peakRss = cluster.workers.map((w) => peakRssMb(w.pid));
        await cluster.stop();
        return { mode: 'distributed (api + 2 workers, PostgreSQL, Redis)', peakRssMb: peakRss };
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'trawl-bench-'));
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const serve = () =>
    Bun.spawn(['bun', ...(args.profile ? ['--cpu-prof-md', `--cpu-prof-dir=${args.profile}`] : []), join(ROOT, 'bin/trawl.ts'), 'serve'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, PORT: String(port), HOST: '127.0.0.1', TRAWL_DATA_DIR: join(dir, 'data'), TRAWL_AUTH: 'off',
        TRAWL_ALLOW_PRIVATE_TARGETS: 'true', TRAWL_LOG_LEVEL: 'warn', ...env },
      stdout: 'ignore',
      stderr: 'inherit',
    });
  // First start initialises the embedded database (initdb peaks near 1 GB); measure a normal start.
  const first = serve();
  await waitHealthy(base);
  first.kill('SIGTERM');
  await first.exited;
  const proc = serve();
  await waitHealthy(base);
  return {
    round: (n) => trawlRound(n, base, start, () => cpuSeconds(proc.pid), () => threadCpuSeconds(proc.pid)),
    async close() {
      const peakRss = peakRssMb(proc.pid);
      proc.kill('SIGTERM');
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
      return { mode: 'embedded (trawl serve: PGlite, in-process queue)', peakRssMb: peakRss };
    },
  };
}

/** Crawlee's side in its own process (crawlee-run.ts --stdin: one round per line it reads), or why not. */
async function startCrawlee(start: string): Promise<Side | string> {
  try {
    Bun.resolveSync('@crawlee/cheerio', ROOT);
  } catch {
    return '@crawlee/cheerio is not installed (bun install)';
  }
  const dir = mkdtempSync(join(tmpdir(), 'crawlee-bench-'));
  const proc = Bun.spawn(['bun', join(import.meta.dir, 'crawlee-run.ts'), start, String(ROUNDS), '--stdin'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, CRAWLEE_STORAGE_DIR: join(dir, 'storage') },
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let peakRss = NaN;
  /** The next JSON line crawlee-run.ts prints. */
  async function nextResult(): Promise<Omit<Round, 'fetches' | 'pagesPerSecond'> & { peakRssMb: number }> {
    for (;;) {
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (line.startsWith('{')) return JSON.parse(line);
      }
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`crawlee-run.ts exited (${await proc.exited}) without a result`);
      buffered += chunk.value;
    }
  }
  return {
    async round(n) {
      const fetches0 = fetchCount();
      proc.stdin.write('go\n');
      proc.stdin.flush();
      const r = await nextResult();
      peakRss = r.peakRssMb;
      const cpu = () => cpuSeconds(proc.pid);
      return { ...r, round: n, fetches: fetchCount() - fetches0, pagesPerSecond: r.pages / r.seconds, ...(await settle(cpu)) };
    },
    async close() {
      proc.stdin.end();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
      return { peakRssMb: peakRss };
    },
  };
}

if (!pgDocsInstalled) {
  process.stderr.write('postgresql-doc-15 is not installed: apt-get install -y postgresql-doc-15\n');
  process.exit(2);
}
const site = servePgDocs();
const start = `${site.origin}/index.html`;
const line = (r: Round) =>
  `${r.pages} pages in ${r.seconds.toFixed(2)} s = ${r.pagesPerSecond.toFixed(1)} pages/s, ${r.cpuSeconds.toFixed(1)} CPU s, ${r.fetches} fetches; ` +
  `quiet ${r.settleSeconds!.toFixed(2)} s later (${r.settleCpuSeconds!.toFixed(1)} CPU s)`;
try {
  // The sides alternate round by round, so each pair of crawls runs under the same machine conditions.
  const trawl = await startTrawl(start);
  const crawlee = args['skip-crawlee'] ? '--skip-crawlee' : await startCrawlee(start);
  const trawlRuns: Round[] = [];
  const crawleeRuns: Round[] = [];
  const ratios: { crawl: number; untilQuiet: number }[] = [];
  try {
    for (let i = 1; i <= ROUNDS; i++) {
      const t = await trawl.round(i);
      trawlRuns.push(t);
      process.stdout.write(`${i === 1 ? 'round 1 (cold start)' : `round ${i} (warmed up)`}\n  Trawl   ${line(t)}\n`);
      if (typeof crawlee === 'string') continue;
      const c = await crawlee.round(i);
      crawleeRuns.push(c);
      // The crawl's rate, and the rate counting the time until each side was quiet again.
      const untilQuiet = (r: Round) => r.pages / (r.seconds + r.settleSeconds!);
      ratios.push({ crawl: t.pagesPerSecond / c.pagesPerSecond, untilQuiet: untilQuiet(t) / untilQuiet(c) });
      process.stdout.write(`  Crawlee ${line(c)}\n  Trawl / Crawlee: ${ratios.at(-1)!.crawl.toFixed(2)}x (until quiet: ${ratios.at(-1)!.untilQuiet.toFixed(2)}x)\n`);
    }
  } finally {
    const trawlInfo = await trawl.close();
    const crawleeInfo = typeof crawlee === 'string' ? { skipped: crawlee } : await crawlee.close();
    process.stdout.write(`Trawl   ${trawlInfo.mode}, onlyMainContent ${!args['full-page']}, peak RSS ${JSON.stringify(trawlInfo.peakRssMb)} MB\n`);
    if (typeof crawlee !== 'string') process.stdout.write(`Crawlee CheerioCrawler + turndown, peak RSS ${crawleeInfo.peakRssMb} MB\n`);
    process.stdout.write(
      `${JSON.stringify({ trawl: { ...trawlInfo, rounds: trawlRuns, onlyMainContent: !args['full-page'] }, crawlee: { ...crawleeInfo, rounds: crawleeRuns }, ratios, loadavg: loadavg() })}\n`,
    );
  }
} finally {
  site.stop();
}
