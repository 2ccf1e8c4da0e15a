/**
 * HTML-to-markdown throughput on real pages, and the binary's cold start and idle memory.
 *
 * Inputs: the largest pages of Debian's postgresql-doc-15 manual (installed by `bin/setup --test`)
 * and a multi-megabyte page made by joining several of them. For each input it times, in this one
 * process: Trawl's converter alone (formats/markdown/convert.ts), Trawl's full step (cleanHtml with
 * onlyMainContent + convert), turndown + GFM alone, and mdream. Then it starts `dist/trawl serve`
 * (build it first with `bun bin/build.ts`) from a temporary directory and reports the time to the
 * first `/health` answer (first start and a warm restart) and the idle RSS.
 *
 * Usage: bun bench/markdown/throughput.ts [--runs 5]
 */
import { readFileSync, readdirSync, statSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { htmlToMarkdown as mdream } from 'mdream';
import { htmlToMarkdown } from '../../formats/markdown/convert.ts';
import { cleanHtml } from '../../parsers/html/clean.ts';

const DOCS = '/usr/share/doc/postgresql-doc-15/html';
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;

function pages(): { name: string; html: string }[] {
  const files = readdirSync(DOCS).filter((f) => f.endsWith('.html'));
  const largest = files.map((f) => ({ f, size: statSync(join(DOCS, f)).size })).sort((a, b) => b.size - a.size).slice(0, 5);
  const out = largest.map(({ f }) => ({ name: f, html: readFileSync(join(DOCS, f), 'utf8') }));
  // A multi-megabyte page: the bodies of the 40 largest pages in one document.
  const bodies = files
    .map((f) => ({ f, size: statSync(join(DOCS, f)).size }))
    .sort((a, b) => b.size - a.size)
    .slice(0, 40)
    .map(({ f }) => readFileSync(join(DOCS, f), 'utf8').replace(/^[\s\S]*?<body[^>]*>/i, '').replace(/<\/body>[\s\S]*$/i, ''));
  out.push({ name: 'joined-40-pages', html: `<html><head><title>joined</title></head><body>${bodies.join('\n')}</body></html>` });
  return out;
}

function time(fn: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.use(gfm);

const rows: string[][] = [['page', 'MiB', 'trawl convert', 'trawl clean+convert', 'turndown+gfm', 'mdream']];
for (const { name, html } of pages()) {
  const mib = Buffer.byteLength(html) / 1048576;
  const url = 'http://127.0.0.1/' + name;
  const cleaned = cleanHtml(html, { url, onlyMainContent: false });
  const speed = (ms: number) => `${(mib / (ms / 1000)).toFixed(1)} MiB/s`;
  rows.push([
    name,
    mib.toFixed(2),
    speed(time(() => htmlToMarkdown(cleaned, {}))),
    speed(time(() => htmlToMarkdown(cleanHtml(html, { url, onlyMainContent: true }), {}))),
    speed(time(() => turndown.turndown(html))),
    speed(time(() => mdream(html, { origin: 'http://127.0.0.1' }))),
  ]);
}
console.log(`HTML -> markdown, median of ${runs} runs (speed relative to the input HTML size)`);
for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(26) : c.padStart(20))).join(''));

// Binary: cold start and idle RSS.
const binary = resolve(import.meta.dir, '../../dist/trawl');
if (!existsSync(binary)) {
  console.log('\ndist/trawl not found: run `bun bin/build.ts` for the start-up numbers');
} else {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-bench-'));
  const rss = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]) / 1024;
  const startOnce = async (label: string) => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const t = performance.now();
    const proc = Bun.spawn([binary, 'serve'], { cwd: dir, env: { PATH: '/usr/bin:/bin', PORT: String(port), HOST: '127.0.0.1', TRAWL_AUTH: 'off', TRAWL_LOG_LEVEL: 'warn' }, stdout: 'ignore', stderr: 'ignore' });
    let health = NaN;
    let ready = NaN;
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.ok && Number.isNaN(health)) health = performance.now() - t;
        const r = await fetch(`http://127.0.0.1:${port}/ready`);
        if (r.ok) {
          ready = performance.now() - t;
          break;
        }
      } catch {}
      await Bun.sleep(10);
    }
    await Bun.sleep(3000);
    const idle = rss(proc.pid);
    proc.kill('SIGTERM');
    await proc.exited;
    console.log(`${label.padEnd(34)} first /health ${health.toFixed(0)} ms, /ready ${ready.toFixed(0)} ms, idle RSS ${idle.toFixed(0)} MB`);
  };
  console.log('\ndist/trawl serve (embedded default)');
  await startOnce('first start (creates the database)');
  await startOnce('restart (existing data dir)');
  rmSync(dir, { recursive: true, force: true });
}
