/**
 * The clean step (cleanDom with onlyMainContent, on the page already parsed, as the HTML parser
 * plugin hands it over) timed per page over the postgresql-doc-15 manual, optionally against another
 * checkout of Trawl (`--old /path/to/checkout`), alternating old and new round by round so both run
 * under the same machine load. `--dump dir` writes each page's markdown (of this checkout) for a
 * before/after diff.
 *
 *   bun bench/main-content/pg-docs-clean.ts [--old /tmp/trawl-base] [--rounds 4] [--dump /tmp/pg-md]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const DOCS = '/usr/share/doc/postgresql-doc-15/html';
const { values: args } = parseArgs({ options: { old: { type: 'string' }, rounds: { type: 'string', default: '4' }, dump: { type: 'string' } } });

interface Impl {
  name: string;
  cleanDom: (html: string, opts: { url: string; onlyMainContent: boolean; tree?: unknown }) => unknown[];
  parseHtml: (html: string) => unknown;
  nodesToMarkdown: (nodes: unknown[]) => string;
}

async function load(root: string, name: string): Promise<Impl> {
  const clean = await import(join(root, 'parsers/html/clean.ts'));
  const dom = await import(join(root, 'parsers/html/dom.ts'));
  const md = await import(join(root, 'formats/markdown/convert.ts'));
  return { name, cleanDom: clean.cleanDom, parseHtml: dom.parseHtml, nodesToMarkdown: md.nodesToMarkdown };
}

const pages = readdirSync(DOCS).filter((f) => f.endsWith('.html')).sort().map((f) => ({ f, url: `http://127.0.0.1/${f}`, html: readFileSync(join(DOCS, f), 'utf8') }));
const impls = [await load(resolve(import.meta.dir, '../..'), 'new')];
if (args.old) impls.unshift(await load(resolve(args.old), 'old'));

if (args.dump) {
  mkdirSync(args.dump, { recursive: true });
  const impl = impls[impls.length - 1];
  for (const p of pages) writeFileSync(join(args.dump, p.f.replace(/\.html$/, '.md')), impl.nodesToMarkdown(impl.cleanDom(p.html, { url: p.url, onlyMainContent: true })));
}

const times: Record<string, number[]> = {};
for (let round = 0; round < Number(args.rounds); round++) {
  for (const impl of impls) {
    const trees = pages.map((p) => impl.parseHtml(p.html));
    const t0 = performance.now();
    for (let i = 0; i < pages.length; i++) impl.cleanDom(pages[i].html, { url: pages[i].url, onlyMainContent: true, tree: trees[i] });
    (times[impl.name] ??= []).push((performance.now() - t0) / pages.length);
  }
}
for (const [name, ts] of Object.entries(times)) {
  const sorted = [...ts].sort((a, b) => a - b);
  console.log(`${name.padEnd(4)} clean step ms/page: median ${sorted[Math.floor(sorted.length / 2)].toFixed(3)}  rounds ${ts.map((t) => t.toFixed(3)).join(' ')}`);
}
