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
 * Prints pages per second for each round, the CPU seconds of the crawling processes and their peak
 * RSS (VmHWM), then one JSON line. `--rounds 1` runs the cold crawl only.
 *
 *   bun bench/crawl/pg-docs.ts
 *   bun bench/crawl/pg-docs.ts --distributed --team-concurrency 20
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
    'team-concurrency': { type: 'string', default: '10' },
    'worker-concurrency': { type: 'string', default: '8' },
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

/** Crawls ROUNDS times through one Trawl API; `cpu` reads the crawling processes' CPU seconds. */
async function trawlRounds(base: string, start: string, cpu: () => number, threads?: () => Record<string, number>): Promise<Round[]> {
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const cpu0 = cpu();
    const threads0 = threads?.();
    const fetches0 = fetchCount();
    const r = await crawlWithTrawl(base, start);
    rounds.push({
      round, ...r, cpuSeconds: Math.round((cpu() - cpu0) * 100) / 100, fetches: fetchCount() - fetches0, pagesPerSecond: r.pages / r.seconds,
      ...(threads ? { threadCpuSeconds: threadDelta(threads0!, threads()) } : {}),
    });
  }
  return rounds;
}

async function benchTrawl(start: string): Promise<Record<string, unknown>> {
  const env: Record<string, string> = { TRAWL_TEAM_CONCURRENCY: args['team-concurrency']!, TRAWL_WORKER_CONCURRENCY: args['worker-concurrency']! };
  if (args['content-threads'] !== undefined) env.TRAWL_CONTENT_THREADS = args['content-threads'];
  if (args.distributed) {
    const cluster = await startCluster(2, env);
    try {
      const rounds = await trawlRounds(cluster.base, start, () => cluster.workers.reduce((a, w) => a + cpuSeconds(w.pid), 0));
      return { mode: 'distributed (api + 2 workers, PostgreSQL, Redis)', rounds, peakRssMb: cluster.workers.map((w) => peakRssMb(w.pid)) };
    } finally {
      await cluster.stop();
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'trawl-bench-'));
  const port = freePort();
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
  await waitHealthy(`http://127.0.0.1:${port}`);
  first.kill('SIGTERM');
  await first.exited;
  const proc = serve();
  try {
    await waitHealthy(`http://127.0.0.1:${port}`);
    const rounds = await trawlRounds(`http://127.0.0.1:${port}`, start, () => cpuSeconds(proc.pid), () => threadCpuSeconds(proc.pid));
    return { mode: 'embedded (trawl serve: PGlite, in-process queue)', rounds, peakRssMb: peakRssMb(proc.pid) };
  } finally {
    proc.kill('SIGTERM');
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchCrawlee(start: string): Promise<Record<string, unknown>> {
  try {
    Bun.resolveSync('@crawlee/cheerio', ROOT);
  } catch {
    return { skipped: '@crawlee/cheerio is not installed (bun install)' };
  }
  const dir = mkdtempSync(join(tmpdir(), 'crawlee-bench-'));
  const proc = Bun.spawn(['bun', join(import.meta.dir, 'crawlee-run.ts'), start, String(ROUNDS)], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, CRAWLEE_STORAGE_DIR: join(dir, 'storage') },
    stdout: 'pipe',
    stderr: 'inherit',
  });
  // One JSON line per round; the site's fetch count is read as each line arrives.
  const rounds: Round[] = [];
  let fetches0 = fetchCount();
  let buffered = '';
  const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffered += chunk.value;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (!line.startsWith('{')) continue;
      const r = JSON.parse(line) as Omit<Round, 'fetches' | 'pagesPerSecond'> & { peakRssMb: number };
      rounds.push({ ...r, fetches: fetchCount() - fetches0, pagesPerSecond: r.pages / r.seconds });
      fetches0 = fetchCount();
    }
  }
  await proc.exited;
  rmSync(dir, { recursive: true, force: true });
  if (rounds.length === 0) return { error: `crawlee-run.ts exited with ${proc.exitCode} and printed no result` };
  return { rounds, peakRssMb: (rounds.at(-1) as unknown as { peakRssMb: number }).peakRssMb };
}

if (!pgDocsInstalled) {
  process.stderr.write('postgresql-doc-15 is not installed: apt-get install -y postgresql-doc-15\n');
  process.exit(2);
}
const site = servePgDocs();
const start = `${site.origin}/index.html`;
try {
  const trawl = await benchTrawl(start);
  const crawlee = args['skip-crawlee'] ? { skipped: '--skip-crawlee' } : await benchCrawlee(start);
  const trawlRuns = trawl.rounds as Round[];
  const crawleeRuns = (crawlee as { rounds?: Round[] }).rounds;
  const line = (r: Round) => `${r.pages} pages in ${r.seconds.toFixed(2)} s = ${r.pagesPerSecond.toFixed(1)} pages/s, ${r.cpuSeconds.toFixed(1)} CPU s, ${r.fetches} fetches`;
  process.stdout.write(`Trawl   ${trawl.mode}, onlyMainContent ${!args['full-page']}, peak RSS ${JSON.stringify(trawl.peakRssMb)} MB\n`);
  if (crawleeRuns) process.stdout.write(`Crawlee CheerioCrawler + turndown, peak RSS ${(crawlee as { peakRssMb?: number }).peakRssMb} MB\n`);
  else process.stdout.write(`Crawlee: ${(crawlee as { skipped?: string }).skipped ?? JSON.stringify(crawlee)}\n`);
  const ratios: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const label = i === 0 ? 'round 1 (cold start)' : `round ${i + 1} (warmed up)`;
    const t = trawlRuns[i];
    const c = crawleeRuns?.[i];
    process.stdout.write(`${label}\n  Trawl   ${line(t)}\n`);
    if (c) {
      ratios.push(t.pagesPerSecond / c.pagesPerSecond);
      process.stdout.write(`  Crawlee ${line(c)}\n  Trawl / Crawlee: ${ratios[i].toFixed(2)}x\n`);
    }
  }
  process.stdout.write(`${JSON.stringify({ trawl: { ...trawl, onlyMainContent: !args['full-page'] }, crawlee, ratios, loadavg: loadavg() })}\n`);
} finally {
  site.stop();
}
