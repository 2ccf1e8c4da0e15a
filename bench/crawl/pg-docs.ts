#!/usr/bin/env bun
/**
 * Crawl benchmark: the 1,169-page postgresql-doc-15 manual (apt-get install -y postgresql-doc-15),
 * served on 127.0.0.1 with a generated sitemap, crawled to markdown (no browser) by
 *   1. Trawl: one `trawl serve` process (embedded PGlite, in-process queue), or with
 *      `--distributed` an `api` + two `worker` processes on PostgreSQL and Redis;
 *   2. Crawlee's CheerioCrawler doing the same crawl (fetch + cheerio parse + turndown) in its own
 *      process (bench/crawl/crawlee-run.ts), when `@crawlee/cheerio` (a devDependency) is installed.
 * Prints pages per second and peak RSS (VmHWM of the crawling processes) for each, then one JSON line.
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
    await Bun.sleep(200);
  }
}

async function benchTrawl(start: string): Promise<Record<string, unknown>> {
  const env: Record<string, string> = { TRAWL_TEAM_CONCURRENCY: args['team-concurrency']!, TRAWL_WORKER_CONCURRENCY: args['worker-concurrency']! };
  if (args['content-threads'] !== undefined) env.TRAWL_CONTENT_THREADS = args['content-threads'];
  if (args.distributed) {
    const cluster = await startCluster(2, env);
    try {
      const cpu0 = cluster.workers.map((w) => cpuSeconds(w.pid));
      const r = await crawlWithTrawl(cluster.base, start);
      const cpu = cluster.workers.map((w, i) => cpuSeconds(w.pid) - cpu0[i]);
      return { mode: 'distributed (api + 2 workers, PostgreSQL, Redis)', ...r, peakRssMb: cluster.workers.map((w) => peakRssMb(w.pid)), workerCpuSeconds: cpu };
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
    const cpu0 = cpuSeconds(proc.pid);
    const r = await crawlWithTrawl(`http://127.0.0.1:${port}`, start);
    return { mode: 'embedded (trawl serve: PGlite, in-process queue)', ...r, peakRssMb: peakRssMb(proc.pid), cpuSeconds: cpuSeconds(proc.pid) - cpu0, threadCpuSeconds: threadCpuSeconds(proc.pid) };
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
  const proc = Bun.spawn(['bun', join(import.meta.dir, 'crawlee-run.ts'), start], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, CRAWLEE_STORAGE_DIR: join(dir, 'storage') },
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  rmSync(dir, { recursive: true, force: true });
  const last = out.trim().split('\n').pop() ?? '{}';
  return JSON.parse(last);
}

if (!pgDocsInstalled) {
  process.stderr.write('postgresql-doc-15 is not installed: apt-get install -y postgresql-doc-15\n');
  process.exit(2);
}
const site = servePgDocs();
const start = `${site.origin}/index.html`;
try {
  const trawl = await benchTrawl(start);
  site.hits.clear();
  const crawlee = args['skip-crawlee'] ? { skipped: '--skip-crawlee' } : await benchCrawlee(start);
  const rate = (r: Record<string, unknown>) => (typeof r.pages === 'number' && typeof r.seconds === 'number' ? r.pages / r.seconds : undefined);
  const tr = rate(trawl);
  const cr = rate(crawlee);
  process.stdout.write(`Trawl   ${trawl.mode}, onlyMainContent ${!args['full-page']}: ${trawl.pages} pages in ${(trawl.seconds as number).toFixed(1)} s = ${tr?.toFixed(1)} pages/s, peak RSS ${JSON.stringify(trawl.peakRssMb)} MB\n`);
  if (cr) process.stdout.write(`Crawlee CheerioCrawler + turndown: ${crawlee.pages} pages in ${(crawlee.seconds as number).toFixed(1)} s = ${cr.toFixed(1)} pages/s, peak RSS ${crawlee.peakRssMb} MB\n`);
  else process.stdout.write(`Crawlee: ${crawlee.skipped ?? JSON.stringify(crawlee)}\n`);
  if (tr && cr) process.stdout.write(`Trawl / Crawlee: ${(tr / cr).toFixed(2)}x\n`);
  process.stdout.write(`${JSON.stringify({ trawl: { ...trawl, onlyMainContent: !args['full-page'], pagesPerSecond: tr }, crawlee: { ...crawlee, pagesPerSecond: cr }, loadavg: loadavg() })}\n`);
} finally {
  site.stop();
}
