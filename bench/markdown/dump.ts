#!/usr/bin/env bun
/**
 * Before/after check of the markdown step's output: dumps the markdown of every page of the
 * postgresql-doc-15 manual (or a directory given with --dir) through the production path (parseHtml,
 * cleanDom, nodesToMarkdown) with the code found under --root (default: this checkout), once with
 * onlyMainContent and once without, one file per page and mode, into --out. Run it once on a copy of
 * the old code (`git archive <rev> | tar -x -C /tmp/old`, node_modules linked) and once on the new,
 * then `diff -r` the two outputs, or pass --against <old out dir> to have it count and list them.
 *
 *   bun bench/markdown/dump.ts --out /tmp/md-new [--root /tmp/old] [--dir DIR] [--against /tmp/md-old]
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: resolve(import.meta.dir, '../..') },
    out: { type: 'string' },
    dir: { type: 'string', default: '/usr/share/doc/postgresql-doc-15/html' },
    against: { type: 'string' },
  },
});
if (!args.out) throw new Error('--out DIR is required');

const root = resolve(args.root!);
const { parseHtml } = await import(join(root, 'parsers/html/dom.ts'));
const { cleanDom } = await import(join(root, 'parsers/html/clean.ts'));
const { nodesToMarkdown } = await import(join(root, 'formats/markdown/render.ts'));

mkdirSync(args.out, { recursive: true });
const files = readdirSync(args.dir!).filter((f) => /\.html?$/.test(f)).sort();
let differing = 0;
const listed: string[] = [];
const started = performance.now();
for (const f of files) {
  const html = readFileSync(join(args.dir!, f), 'utf8');
  for (const onlyMainContent of [true, false]) {
    const nodes = cleanDom(html, { url: `https://www.postgresql.org/docs/15/${f}`, onlyMainContent, tree: parseHtml(html) });
    const md = nodesToMarkdown(nodes, { removeBase64Images: true });
    const name = `${f.replace(/\.html?$/, '')}.${onlyMainContent ? 'main' : 'full'}.md`;
    writeFileSync(join(args.out, name), md + '\n');
    if (args.against) {
      const old = join(args.against, name);
      if (!existsSync(old) || readFileSync(old, 'utf8') !== md + '\n') {
        differing++;
        if (listed.length < 20) listed.push(name);
      }
    }
  }
}
process.stdout.write(`${files.length} pages x 2 modes from ${root} -> ${args.out} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
if (args.against) {
  process.stdout.write(`${differing} of ${files.length * 2} outputs differ from ${args.against}\n`);
  for (const n of listed) process.stdout.write(`  ${n}\n`);
}
