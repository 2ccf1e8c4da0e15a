#!/usr/bin/env bun
/**
 * Bounded load run on loopback (issue 7): one Trawl process (`trawl serve`, the embedded default
 * unless --database-url is given) answers POST /v2/scrape at a fixed request rate (open loop: requests
 * start on schedule whether or not earlier ones finished) for a fixed time. The target is a small
 * fixture page served by this script; with the scrape cache (maxAge) a repeated URL is served from the
 * cache when the cache exists. Reports throughput, latency percentiles and every non-200 answer.
 *
 *   bun bench/load/scrape-load.ts [--rate 200] [--duration 30] [--pages 20] [--database-url postgres://...]
 *                                 [--redis-url redis://...] [--max-age MS] [--concurrency N]
 *                                 [--cpu-prof-dir DIR]   (a markdown CPU profile of the Trawl process)
 *
 * `--max-age 0` makes every scrape a fresh one (no cache read); without it the default maxAge applies
 * and the warmed pages are cache hits. `--concurrency N` runs closed loop instead: N clients, each
 * sending its next request when the last one answered, for `--duration` seconds (the process's
 * capacity, without the queueing an overloaded open loop builds up).
 *
 * Needs no network beyond 127.0.0.1. Prints a JSON summary on the last line.
 */
import { parseArgs } from 'node:util';
import { serveNoticeSite } from './notice-site.ts';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    duration: { type: 'string', default: '30' },
    pages: { type: 'string', default: '20' },
    'warmup-rate': { type: 'string', default: '20' },
    'database-url': { type: 'string' },
    'redis-url': { type: 'string' },
    'max-age': { type: 'string' },
    concurrency: { type: 'string' },
    'cpu-prof-dir': { type: 'string' },
  },
});
const RATE = Number(values.rate);
const DURATION_S = Number(values.duration);
const PAGES = Number(values.pages);

// The fixture site: PAGES distinct article pages of ~6 KB.
const fixture = serveNoticeSite();
const pageUrl = (i: number) => fixture.url(i % PAGES);

// One Trawl process.
const root = join(import.meta.dir, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'trawl-load-'));
const profile = values['cpu-prof-dir'] ? ['--cpu-prof-md', `--cpu-prof-dir=${values['cpu-prof-dir']}`] : [];
const proc = Bun.spawn([process.execPath, ...profile, join(root, 'bin', 'trawl.ts'), 'serve'], {
  cwd: root,
  env: {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    PORT: '0',
    HOST: '127.0.0.1',
    TRAWL_DATA_DIR: dataDir,
    TRAWL_ALLOW_PRIVATE_TARGETS: 'true',
    TRAWL_LOG_LEVEL: 'info',
    ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : {}),
    ...(values['redis-url'] ? { REDIS_URL: values['redis-url'] } : {}),
  },
  stdout: 'pipe',
  stderr: 'inherit',
});
let out = '';
void (async () => {
  const d = new TextDecoder();
  const reader = proc.stdout.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    out += d.decode(value, { stream: true });
  }
})();
const startDeadline = Date.now() + 120_000;
while (!/"msg":"trawl listening"/.test(out)) {
  if (proc.exitCode !== null || Date.now() > startDeadline) throw new Error(`trawl did not start:\n${out.slice(-3000)}`);
  await Bun.sleep(50);
}
const port = Number(out.split('\n').find((l) => l.includes('"msg":"trawl listening"'))!.match(/"port":(\d+)/)![1]);
const key = out.match(/fc-[0-9a-f]{32}/)?.[0];
const base = `http://127.0.0.1:${port}`;
const headers = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };

interface Sample {
  ms: number;
  status: number;
  cache?: string;
}

const maxAge = values['max-age'] === undefined ? undefined : Number(values['max-age']);

async function one(i: number): Promise<Sample> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}/v2/scrape`, { method: 'POST', headers, body: JSON.stringify({ url: pageUrl(i), ...(maxAge !== undefined ? { maxAge } : {}) }) });
    const body = (await res.json()) as any;
    return { ms: performance.now() - t0, status: res.status, cache: body?.data?.metadata?.cacheState };
  } catch {
    return { ms: performance.now() - t0, status: 0 };
  }
}

/** Fires `rate` requests per second for `seconds`, on schedule (open loop). */
async function run(rate: number, seconds: number): Promise<{ samples: Sample[]; wallMs: number }> {
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const started = performance.now();
  const pending: Promise<Sample>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await Bun.sleep(wait);
    pending.push(one(i));
  }
  const samples = await Promise.all(pending);
  return { samples, wallMs: performance.now() - started };
}

/** `clients` closed loops for `seconds`: each sends its next request when the last one answered. */
async function closedLoop(clients: number, seconds: number): Promise<{ samples: Sample[]; wallMs: number }> {
  const started = performance.now();
  const end = started + seconds * 1000;
  const samples: Sample[] = [];
  let i = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) samples.push(await one(i++));
    }),
  );
  return { samples, wallMs: performance.now() - started };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// Warm-up: every page once (fills the cache where there is one), at a gentle rate.
await run(Number(values['warmup-rate']), PAGES / Number(values['warmup-rate']));
/** CPU time the Trawl process (all its threads) has used so far, ms (Linux /proc). */
async function cpuMs(): Promise<number> {
  const f = (await Bun.file(`/proc/${proc.pid}/stat`).text()).split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, clock ticks (USER_HZ 100)
}
/** CPU ms used so far by each thread of the Trawl process, by `name#tid` (the embedded database is a `Worker`). */
async function threadCpuMs(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const tid of await Array.fromAsync(new Bun.Glob('*').scan({ cwd: `/proc/${proc.pid}/task`, onlyFiles: false }))) {
    try {
      const stat = await Bun.file(`/proc/${proc.pid}/task/${tid}/stat`).text();
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      out.set(`${name}#${tid}`, ((Number(f[11]) + Number(f[12])) * 1000) / 100);
    } catch {
      // the thread ended
    }
  }
  return out;
}
const cpuBefore = await cpuMs();
const threadsBefore = await threadCpuMs();
const rssBefore = Number((await Bun.$`ps -o rss= -p ${proc.pid}`.text()).trim()) / 1024;
const { samples, wallMs } = values.concurrency ? await closedLoop(Number(values.concurrency), DURATION_S) : await run(RATE, DURATION_S);
const cpuAfter = await cpuMs();
const threadsAfter = await threadCpuMs();
const rssAfter = Number((await Bun.$`ps -o rss= -p ${proc.pid}`.text()).trim()) / 1024;

const ok = samples.filter((s) => s.status === 200);
const errors = samples.filter((s) => s.status !== 200);
const lat = ok.map((s) => s.ms).sort((a, b) => a - b);
const byStatus: Record<string, number> = {};
for (const s of samples) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
const cache: Record<string, number> = {};
for (const s of ok) cache[s.cache ?? 'none'] = (cache[s.cache ?? 'none'] ?? 0) + 1;
const summary = {
  targetRate: values.concurrency ? null : RATE,
  concurrency: values.concurrency ? Number(values.concurrency) : null,
  maxAge: maxAge ?? null,
  durationS: DURATION_S,
  requests: samples.length,
  ok: ok.length,
  errors: errors.length,
  byStatus,
  cacheState: cache,
  throughputPerS: Number((ok.length / (wallMs / 1000)).toFixed(1)),
  latencyMs: { p50: Number(pct(lat, 50)?.toFixed(1)), p90: Number(pct(lat, 90)?.toFixed(1)), p99: Number(pct(lat, 99)?.toFixed(1)), max: Number(lat.at(-1)?.toFixed(1)) },
  // CPU per answered scrape: steadier than throughput on a machine shared with other work.
  cpuMsPerScrape: Number(((cpuAfter - cpuBefore) / Math.max(1, ok.length)).toFixed(2)),
  // The busiest threads' CPU per answered scrape, ms (which thread is the database's shows here).
  threadCpuMsPerScrape: Object.fromEntries(
    [...threadsAfter]
      .map(([k, v]) => [k, (v - (threadsBefore.get(k) ?? 0)) / Math.max(1, ok.length)] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, v]) => [k, Number(v.toFixed(2))]),
  ),
  rssMiB: { before: Math.round(rssBefore), after: Math.round(rssAfter) },
  database: values['database-url'] ? 'postgres' : 'embedded',
  queue: values['redis-url'] ? 'bullmq' : 'memory',
};
console.log(`rate ${RATE}/s for ${DURATION_S}s: ${ok.length}/${samples.length} ok, ${errors.length} errors, throughput ${summary.throughputPerS}/s`);
console.log(`latency ms: p50 ${summary.latencyMs.p50}  p90 ${summary.latencyMs.p90}  p99 ${summary.latencyMs.p99}  max ${summary.latencyMs.max}`);
console.log(`server CPU per scrape: ${summary.cpuMsPerScrape} ms; busiest threads: ${JSON.stringify(summary.threadCpuMsPerScrape)}`);
console.log(`cacheState: ${JSON.stringify(cache)}  rss MiB: ${summary.rssMiB.before} -> ${summary.rssMiB.after}`);
console.log(JSON.stringify(summary));

proc.kill('SIGTERM');
await proc.exited;
fixture.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(errors.length === 0 ? 0 : 1);
