#!/usr/bin/env bun
/**
 * Input fuzz of a running Trawl (issue 15): starts `bun bin/trawl.ts serve` (production mode, keyless,
 * embedded database unless --database-url), reads its POST routes from the OpenAPI document (plus the
 * hidden /admin/commands; test/e2e/input-fuzz.test.ts reads them from the app itself), and posts
 * the full case set of test/e2e/fuzz-cases.ts to each (huge and wrongly typed headers, nesting up to
 * 50,000 deep, NUL and surrogates in every field, null objects, wrong types, non-JSON bodies, chunked
 * bodies over the limit) with a few requests in flight. Meanwhile it asks /health every ~100 ms and
 * reads the server's RSS. Reports requests by status, every 500 (and unanswered request), the worst
 * /health latency and the peak RSS.
 *
 *   bun bench/security/fuzz.ts [--concurrency 4] [--size full|sample] [--database-url postgres://...]
 *                              [--max-body-bytes 10485760] [--routes /v2/scrape,/v1/search]
 *
 * Needs no network beyond 127.0.0.1. Prints a JSON summary on the last line.
 */
import { parseArgs } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { concretePath, fuzzCases, sendCase, type FuzzSize } from '../../test/e2e/fuzz-cases.ts';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '4' },
    size: { type: 'string', default: 'full' },
    'database-url': { type: 'string' },
    'max-body-bytes': { type: 'string', default: String(10 * 1024 * 1024) },
    routes: { type: 'string' },
  },
});
const CONCURRENCY = Number(values.concurrency);
const MAX_BODY = Number(values['max-body-bytes']);
const ROOT = resolve(import.meta.dir, '../..');

const fixture = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: () => new Response('<html><head><title>Fuzz</title></head><body><p>fuzz target</p></body></html>', { headers: { 'content-type': 'text/html' } }),
});
const target = `http://127.0.0.1:${fixture.port}/`;

const dataDir = mkdtempSync(join(tmpdir(), 'trawl-fuzz-'));
const port = 20_000 + (process.pid % 20_000);
const server = Bun.spawn(['bun', 'bin/trawl.ts', 'serve'], {
  cwd: ROOT,
  env: {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    TRAWL_DATA_DIR: dataDir,
    TRAWL_AUTH: 'off',
    TRAWL_ALLOW_PRIVATE_TARGETS: 'true',
    TRAWL_LOG_LEVEL: 'error',
    TRAWL_MAX_BODY_BYTES: String(MAX_BODY),
    TRAWL_KEYLESS_RATE_LIMIT_PER_MINUTE: '100000000',
    TRAWL_RATE_LIMIT_PER_MINUTE: '100000000',
    ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : {}),
  },
  stdout: 'ignore',
  stderr: 'pipe',
});
const base = `http://127.0.0.1:${port}`;

async function waitReady(): Promise<void> {
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${base}/ready`)).status === 200) return;
    } catch {}
    await Bun.sleep(250);
  }
  throw new Error('the server did not become ready');
}

/** The server's resident set, bytes (0 once it has exited). */
function rss(): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

try {
  await waitReady();
  const spec = (await (await fetch(`${base}/docs/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  let routes = Object.entries(spec.paths).filter(([, ops]) => 'post' in ops).map(([p]) => p.replace(/\{(\w+)\}/g, ':$1'));
  if (!routes.includes('/admin/commands')) routes.push('/admin/commands'); // hidden from the document
  if (values.routes) routes = routes.filter((r) => values.routes!.split(',').includes(r));
  const cases = fuzzCases(values.size as FuzzSize, MAX_BODY, target);
  const jobs = routes.flatMap((route) => cases.map((c) => ({ route, c })));
  console.log(`${routes.length} POST routes x ${cases.length} cases = ${jobs.length} requests, ${CONCURRENCY} in flight`);

  let done = false;
  const inFlight = new Set<string>();
  /** Slow /health answers and the requests in flight meanwhile. */
  const stalls: { ms: number; during: string[] }[] = [];
  let worstHealthMs = 0;
  let healthSamples = 0;
  let healthFailures = 0;
  const startRss = rss();
  let peakRss = startRss;
  const sampler = (async () => {
    while (!done) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        if (res.status !== 200) healthFailures++;
      } catch {
        healthFailures++;
      }
      const ms = performance.now() - t0;
      worstHealthMs = Math.max(worstHealthMs, ms);
      if (ms > 500) stalls.push({ ms: Math.round(ms), during: [...inFlight] });
      healthSamples++;
      peakRss = Math.max(peakRss, rss());
      await Bun.sleep(100);
    }
  })();

  const byStatus: Record<string, number> = {};
  const bad: string[] = [];
  const slowest: { ms: number; what: string }[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const { route, c } = jobs[next++];
        const what = `${route} ${c.name}`;
        inFlight.add(what);
        const r = await sendCase(base, concretePath(route), c, 120_000);
        inFlight.delete(what);
        byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
        if (r.status === 500 || r.status === 0) bad.push(`${route} ${c.name}: ${r.status} ${r.code ?? ''}`);
        slowest.push({ ms: Math.round(r.ms), what: `${route} ${c.name}` });
        if (slowest.length > 20) slowest.sort((a, b) => b.ms - a.ms).pop();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  done = true;
  await sampler;
  slowest.sort((a, b) => b.ms - a.ms);
  console.log(`status counts: ${JSON.stringify(byStatus)}`);
  console.log(`500s and unanswered: ${bad.length}`);
  for (const b of bad.slice(0, 50)) console.log(`  ${b}`);
  console.log(`slowest requests: ${slowest.slice(0, 5).map((s) => `${s.what} ${s.ms} ms`).join('; ')}`);
  console.log(`/health: ${healthSamples} samples, worst ${Math.round(worstHealthMs)} ms, ${healthFailures} failed, ${stalls.length} over 500 ms`);
  for (const st of stalls.sort((a, b) => b.ms - a.ms).slice(0, 8)) console.log(`  ${st.ms} ms during: ${st.during.join(' | ')}`);
  console.log(`RSS ${Math.round(startRss / 1024 / 1024)} MB at the start, peak ${Math.round(peakRss / 1024 / 1024)} MB; ${Math.round(seconds)} s`);
  console.log(
    JSON.stringify({
      routes: routes.length, cases: cases.length, requests: jobs.length, concurrency: CONCURRENCY, byStatus, fiveHundreds: bad.length,
      worstHealthMs: Math.round(worstHealthMs), healthSamples, healthFailures, healthOver500ms: stalls.length, startRssMb: Math.round(startRss / 1024 / 1024), peakRssMb: Math.round(peakRss / 1024 / 1024), seconds: Math.round(seconds),
    }),
  );
} finally {
  server.kill();
  await server.exited;
  fixture.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
}
