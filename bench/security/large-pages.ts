/**
 * Large-page exhaustion bench (issue 15 item 8): starts `trawl serve` as a child process (guard off,
 * keys off, a fresh data dir per case), serves the cases from a fixture server on 127.0.0.1, and for
 * each case reports how long the request took, the worst `/health` latency seen while it ran (probed
 * every 100 ms) and the server's peak RSS (VmHWM). Cases:
 *   - scrape: one 30 MB page holding 1,000,000 links, formats markdown + links;
 *   - map: a sitemap index of 20 sitemaps x 50,000 URLs (1,000,000 URLs), limit 100,000;
 *   - map-text: one text sitemap of 1,000,000 URLs (31 MB), limit 100,000.
 *
 * Run: `bun bench/security/large-pages.ts [scrape|map ...]`; extra environment for the server goes in
 * BENCH_ENV (`TRAWL_CONTENT_THREADS=0,...`). Results: bench/security/LARGE-PAGES.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');
const LINKS = 1_000_000;
const SITEMAP_FILES = 20;
const PER_SITEMAP = 50_000;

/** The 30 MB page: 1,000,000 `<li><a href="/p/N">N</a>` lines, built once. */
function bigPage(): string {
  const parts: string[] = ['<!doctype html><html><head><title>Many links</title></head><body><h1>Many links</h1>'];
  for (let i = 0; i < LINKS; i++) parts.push(`<li><a href="/p/${i}">${i}</a>\n`);
  parts.push('</body></html>');
  return parts.join('');
}

function fixture() {
  let page: string | undefined;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      const origin = url.origin;
      if (url.pathname === '/big') return new Response((page ??= bigPage()), { headers: { 'content-type': 'text/html' } });
      if (url.pathname === '/robots.txt') return new Response('User-agent: *\nAllow: /\n');
      if (url.pathname === '/sitemap.xml') {
        const items = Array.from({ length: SITEMAP_FILES }, (_, i) => `<sitemap><loc>${origin}/sitemaps/${i}.xml</loc></sitemap>`);
        return new Response(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${items.join('')}</sitemapindex>`, { headers: { 'content-type': 'application/xml' } });
      }
      const m = url.pathname.match(/^\/sitemaps\/(\d+)\.xml$/);
      if (m) {
        const from = Number(m[1]) * PER_SITEMAP;
        const parts = ['<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
        for (let i = from; i < from + PER_SITEMAP; i++) parts.push(`<url><loc>${origin}/s/${i}</loc></url>`);
        parts.push('</urlset>');
        return new Response(parts.join(''), { headers: { 'content-type': 'application/xml' } });
      }
      if (url.pathname === '/text/sitemap.xml') {
        // One text sitemap of 1,000,000 URLs (~31 MB, under the 50 MB fetch cap).
        const lines: string[] = [];
        for (let i = 0; i < SITEMAP_FILES * PER_SITEMAP; i++) lines.push(`${origin}/text/${i}`);
        return new Response(lines.join('\n'), { headers: { 'content-type': 'text/plain' } });
      }
      if (url.pathname === '/') return new Response('<html><body><a href="/a">a</a></body></html>', { headers: { 'content-type': 'text/html' } });
      return new Response('<html><body>page</body></html>', { headers: { 'content-type': 'text/html' } });
    },
  });
  return { server, base: `http://127.0.0.1:${server.port}` };
}

async function startTrawl(extraEnv: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-bench-sec-'));
  const proc = Bun.spawn([process.execPath, ...(process.env.BENCH_BUN_FLAGS ?? '').split(' ').filter(Boolean), join(ROOT, 'bin', 'trawl.ts'), 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', PORT: '0', HOST: '127.0.0.1', TRAWL_DATA_DIR: dataDir, TRAWL_AUTH: 'off', TRAWL_ALLOW_PRIVATE_TARGETS: 'true', TRAWL_LOG_LEVEL: 'info', ...extraEnv },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let text = '';
  const pump = async (s: ReadableStream<Uint8Array>) => {
    const d = new TextDecoder();
    for await (const c of s as unknown as AsyncIterable<Uint8Array>) text += d.decode(c, { stream: true });
  };
  void pump(proc.stdout);
  void pump(proc.stderr);
  const deadline = Date.now() + 60_000;
  while (!/"msg":"trawl listening"/.test(text)) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`trawl did not start:\n${text.slice(-2000)}`);
    await Bun.sleep(50);
  }
  const port = Number(text.match(/"msg":"trawl listening".*?"port":(\d+)|"port":(\d+).*?"msg":"trawl listening"/)!.slice(1).find(Boolean));
  return {
    base: `http://127.0.0.1:${port}`,
    peakRssMb: () => {
      const m = readFileSync(`/proc/${proc.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
      return m ? Math.round(Number(m[1]) / 1024) : NaN;
    },
    log: () => text,
    async stop() {
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await proc.exited;
      clearTimeout(t);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Probes `/health` of the server under test and of an idle control server every 100 ms from a child
 * process of its own (this one parses 40 MB answers, which would stall its probes); the control shows
 * what the machine's load alone costs.
 */
async function startProbe(targets: string[]) {
  const proc = Bun.spawn([process.execPath, import.meta.path, ...targets], { env: { ...process.env, BENCH_ROLE: 'probe' }, stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' });
  await Bun.sleep(200);
  return {
    async stop(): Promise<number[]> {
      proc.stdin.end();
      return JSON.parse(await new Response(proc.stdout).text());
    },
  };
}

async function probeRole(targets: string[]) {
  const worst = targets.map(() => 0);
  let running = true;
  void (async () => {
    const reader = Bun.stdin.stream().getReader();
    while (!(await reader.read()).done);
    running = false;
  })();
  while (running) {
    await Promise.all(
      targets.map(async (target, i) => {
        const started = performance.now();
        await fetch(`${target}/health`).then((r) => r.arrayBuffer()).catch(() => undefined);
        const ms = performance.now() - started;
        if (process.env.BENCH_TRACE && ms > 300) console.error(`slow ${i ? 'control' : '/health'} ${Math.round(ms)} ms, ended ${new Date().toISOString()}`);
        worst[i] = Math.max(worst[i]!, ms);
      }),
    );
    await Bun.sleep(100);
  }
  process.stdout.write(JSON.stringify(worst.map(Math.round)));
}

if (process.env.BENCH_ROLE === 'probe') {
  await probeRole(process.argv.slice(2));
  process.exit(0);
}
if (process.env.BENCH_ROLE === 'control') {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ status: 'ok' }) });
  console.log(s.port);
  await new Promise(() => {});
}

const CASES: Record<string, (fixtureBase: string) => { path: string; body: unknown }> = {
  scrape: (b) => ({ path: '/v2/scrape', body: { url: `${b}/big`, formats: ['markdown', 'links'], timeout: 300_000 } }),
  map: (b) => ({ path: '/v2/map', body: { url: `${b}/`, limit: 100_000, timeout: 300_000 } }),
  'map-text': (b) => ({ path: '/v2/map', body: { url: `${b}/text/`, limit: 100_000, timeout: 300_000 } }),
};

const env = Object.fromEntries((process.env.BENCH_ENV ?? '').split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]));
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(CASES);
const { server, base } = fixture();
// The control: an idle server in a process of its own.
const controlProc = Bun.spawn([process.execPath, import.meta.path], { env: { ...process.env, BENCH_ROLE: 'control' }, stdout: 'pipe' });
const controlPort = Number(new TextDecoder().decode((await controlProc.stdout.getReader().read()).value).trim());
const controlBase = `http://127.0.0.1:${controlPort}`;
for (const name of wanted) {
  const trawl = await startTrawl(env);
  try {
    await fetch(`${base}/big`).then((r) => r.arrayBuffer()); // build the page before timing
    const { path, body } = CASES[name]!(base);
    const probe = await startProbe([trawl.base, controlBase]);
    const t0 = performance.now();
    const res = await fetch(`${trawl.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as any;
    const ms = Math.round(performance.now() - t0);
    const [worstHealthMs, controlWorstMs] = await probe.stop();
    const summary = name === 'scrape'
      ? { links: json.data?.links?.length, markdownChars: json.data?.markdown?.length, warning: json.data?.warning }
      : { links: json.links?.length, warning: json.warning };
    if (process.env.BENCH_TRACE) console.error(trawl.log().split('\n').filter((l) => /fetched|scraped|parsed|request/.test(l)).join('\n').slice(-3000));
    console.log(JSON.stringify({ case: name, env, status: res.status, ms, worstHealthMs, controlWorstMs, peakRssMb: trawl.peakRssMb(), ...summary, error: json.error }));
  } finally {
    await trawl.stop();
  }
}
server.stop(true);
controlProc.kill();
