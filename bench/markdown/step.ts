#!/usr/bin/env bun
/**
 * The markdown step's throughput as production runs it (parseHtml, cleanDom with onlyMainContent,
 * nodesToMarkdown: no serialize and re-parse between cleaning and converting), beside turndown + GFM
 * on the same pages in the same process, on the inputs of throughput.ts (the five largest pages of the
 * postgresql-doc-15 manual and the 40 largest joined). With `--base DIR` (a copy of older code, e.g.
 * `git archive <rev> | tar -x -C DIR` with node_modules linked) the old code's full step is timed too,
 * alternating with the new in every round, so a loaded machine slows both alike. Times are the
 * process's CPU time (user + system, `process.cpuUsage`), not wall time: on a shared, loaded machine
 * the wall time of one call varies 30-fold with the scheduler, the CPU time far less. Speeds are MiB/s
 * of input HTML per CPU second, summed over the rounds after one warm-up round; ratios are per page.
 *
 * With `--corpus wcxb` the inputs are every `--every`th (default 10th) WCXB development page instead,
 * each timed on its own (only the total is printed); the pages' own URLs are not used (one URL for all).
 *
 *   bun bench/markdown/step.ts [--rounds 8] [--base /tmp/old] [--corpus pg|wcxb] [--every 10]
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '8' }, base: { type: 'string' }, corpus: { type: 'string', default: 'pg' }, every: { type: 'string', default: '10' } },
});
const WCXB = join(import.meta.dir, '../../../shared/data/wcxb-dev');
const DOCS = '/usr/share/doc/postgresql-doc-15/html';

type Step = (html: string) => unknown;
async function trawlStep(root: string): Promise<{ full: Step; convert: (cleaned: string) => unknown; clean: (html: string) => string }> {
  const { parseHtml } = await import(join(root, 'parsers/html/dom.ts'));
  const { cleanDom, cleanHtml } = await import(join(root, 'parsers/html/clean.ts'));
  const { nodesToMarkdown } = await import(join(root, 'formats/markdown/render.ts'));
  const url = 'https://www.postgresql.org/docs/15/page.html';
  return {
    full: (html) => nodesToMarkdown(cleanDom(html, { url, onlyMainContent: true, tree: parseHtml(html) }), { removeBase64Images: true }),
    convert: (cleaned) => nodesToMarkdown(parseHtml(cleaned), { removeBase64Images: true }),
    clean: (html: string): string => cleanHtml(html, { url, onlyMainContent: true }),
  };
}

function pages(): { name: string; html: string }[] {
  if (args.corpus === 'wcxb') return wcxbPages();
  const files = readdirSync(DOCS).filter((f) => f.endsWith('.html')).map((f) => ({ f, size: statSync(join(DOCS, f)).size })).sort((a, b) => b.size - a.size);
  const out = files.slice(0, 5).map(({ f }) => ({ name: f, html: readFileSync(join(DOCS, f), 'utf8') }));
  const bodies = files.slice(0, 40).map(({ f }) => readFileSync(join(DOCS, f), 'utf8').replace(/^[\s\S]*?<body[^>]*>/i, '').replace(/<\/body>[\s\S]*$/i, ''));
  out.push({ name: 'joined-40-pages', html: `<html><head><title>joined</title></head><body>${bodies.join('\n')}</body></html>` });
  return out;
}

/** Every `--every`th WCXB development page (`../shared/data/wcxb-dev`, gzipped, never copied into the repo). */
function wcxbPages(): { name: string; html: string }[] {
  const ids = readdirSync(join(WCXB, 'ground-truth')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  return ids
    .filter((_, i) => i % Number(args.every) === 0)
    .map((id) => ({ name: `wcxb-${id}`, html: gunzipSync(readFileSync(join(WCXB, 'html', `${id}.html.gz`))).toString('utf8') }));
}

const now = await trawlStep(resolve(import.meta.dir, '../..'));
const base = args.base ? await trawlStep(resolve(args.base)) : undefined;
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.use(gfm);

const rounds = Number(args.rounds);
const cols = ['full', 'convert', 'turndown', ...(base ? ['base full'] : [])];
process.stdout.write(`markdown step, MiB/s of input per CPU second over ${rounds} alternating rounds (after 1 warm-up)\n`);
process.stdout.write(['page'.padEnd(24), 'MiB'.padStart(6), ...cols.map((c) => c.padStart(11)), 'full/td'.padStart(9), ...(base ? ['full/base'.padStart(10)] : [])].join('') + '\n');
const sum: Record<string, number> = {};
let totalMib = 0;
for (const { name, html } of pages()) {
  const mib = Buffer.byteLength(html) / 2 ** 20;
  const cleaned = now.clean(html);
  const ms: Record<string, number> = Object.fromEntries(cols.map((c) => [c, 0]));
  const run: Record<string, () => unknown> = { full: () => now.full(html), convert: () => now.convert(cleaned), turndown: () => turndown.turndown(html) };
  if (base) run['base full'] = () => base.full(html);
  for (let r = 0; r <= rounds; r++) {
    // Alternate the order too, so neither side always runs first after a GC.
    const order = r % 2 ? [...cols].reverse() : cols;
    for (const c of order) {
      const t = process.cpuUsage();
      run[c]();
      const d = process.cpuUsage(t);
      if (r > 0) ms[c] += (d.user + d.system) / 1000;
    }
  }
  totalMib += mib * rounds;
  for (const c of cols) sum[c] = (sum[c] ?? 0) + ms[c];
  const speed = (c: string) => ((mib * rounds) / (ms[c] / 1000)).toFixed(1).padStart(11);
  if (args.corpus !== 'wcxb') process.stdout.write(
    [name.padEnd(24), mib.toFixed(2).padStart(6), ...cols.map(speed), (ms.turndown / ms.full).toFixed(2).padStart(9), ...(base ? [(ms['base full'] / ms.full).toFixed(2).padStart(10)] : [])].join('') + '\n',
  );
}
const all = (c: string) => (totalMib / (sum[c] / 1000)).toFixed(1).padStart(11);
process.stdout.write(
  ['all'.padEnd(24), ''.padStart(6), ...cols.map(all), (sum.turndown / sum.full).toFixed(2).padStart(9), ...(base ? [(sum['base full'] / sum.full).toFixed(2).padStart(10)] : [])].join('') + '\n',
);
