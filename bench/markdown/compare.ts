#!/usr/bin/env bun
/**
 * Differential check of the markdown converter: Trawl's own DOM walker (formats/markdown/convert.ts)
 * against the turndown-based converter it replaced (reference copy in bench/markdown/turndown/), on the
 * same cleaned HTML (`cleanHtml` with onlyMainContent true and false). Corpora: the postgresql-doc-15
 * manual, Debian Reference, the Python library, Node.js API, Flask and Django reference docs (each when
 * installed) and test/fixtures/pages.
 * Prints, per corpus and mode, how many pages convert byte-identically and the time per page of each
 * converter (from the cleaned HTML string, parse included), then the first differing lines of a few
 * differing pages.
 *
 *   bun bench/markdown/compare.ts [--show 5] [--context 2] [--corpus postgresql] [--dump /tmp/md-diff]
 *
 * `--dump` writes old/new markdown of every differing page there for a closer look (diff -u).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanHtml } from '../../parsers/html/clean.ts';
import { htmlToMarkdown } from '../../formats/markdown/convert.ts';
import { turndownToMarkdown } from './turndown/convert.ts';

const { values: args } = parseArgs({
  options: {
    show: { type: 'string', default: '5' },
    context: { type: 'string', default: '2' },
    corpus: { type: 'string' },
    dump: { type: 'string' },
  },
});

const CORPORA = [
  { name: 'postgresql', dir: '/usr/share/doc/postgresql-doc-15/html', base: 'https://www.postgresql.org/docs/15/' },
  { name: 'debian-reference', dir: '/usr/share/debian-reference', base: 'https://www.debian.org/doc/manuals/debian-reference/' },
  { name: 'python-library', dir: '/usr/share/doc/python3-doc/html/library', base: 'https://docs.python.org/3/library/' },
  { name: 'nodejs', dir: '/usr/share/doc/nodejs/api', base: 'https://nodejs.org/api/' },
  { name: 'flask', dir: '/usr/share/doc/python-flask-doc/html', base: 'https://flask.palletsprojects.com/' },
  { name: 'django-ref', dir: '/usr/share/doc/python-django-doc/html/ref', base: 'https://docs.djangoproject.com/ref/' },
  { name: 'fixtures', dir: join(import.meta.dir, '../../test/fixtures/pages'), base: 'https://example.com/' },
];

interface Diff {
  corpus: string;
  mode: string;
  file: string;
  old: string;
  now: string;
}

/** The first differing line of two texts with some context, as a small unified-style excerpt. */
function firstDifference(a: string, b: string, context: number): string {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const from = Math.max(0, i - context);
  const lines = [`  @@ line ${i + 1} (old ${x.length} lines, new ${y.length} lines)`];
  for (let k = from; k < i; k++) lines.push('    ' + x[k]);
  for (let k = i; k < Math.min(x.length, i + context + 1); k++) lines.push('  - ' + x[k]);
  for (let k = i; k < Math.min(y.length, i + context + 1); k++) lines.push('  + ' + y[k]);
  return lines.map((l) => (l.length > 160 ? l.slice(0, 157) + '...' : l)).join('\n');
}

const diffs: Diff[] = [];
const context = Number(args.context);
process.stdout.write('corpus            mode   pages  identical   old ms/page  new ms/page\n');
for (const c of CORPORA) {
  if (args.corpus && args.corpus !== c.name) continue;
  if (!existsSync(c.dir)) {
    process.stdout.write(`${c.name.padEnd(18)}not installed\n`);
    continue;
  }
  const files = readdirSync(c.dir).filter((f) => /\.html?$/.test(f)).sort();
  for (const onlyMainContent of [true, false]) {
    const mode = onlyMainContent ? 'main' : 'full';
    let same = 0;
    let oldMs = 0;
    let newMs = 0;
    for (const f of files) {
      const html = readFileSync(join(c.dir, f), 'utf8');
      const cleaned = cleanHtml(html, { url: c.base + f, onlyMainContent });
      let t = performance.now();
      const old = turndownToMarkdown(cleaned);
      oldMs += performance.now() - t;
      t = performance.now();
      const now = htmlToMarkdown(cleaned);
      newMs += performance.now() - t;
      if (old === now) same++;
      else diffs.push({ corpus: c.name, mode, file: f, old, now });
    }
    const pct = ((100 * same) / files.length).toFixed(1);
    process.stdout.write(
      `${c.name.padEnd(18)}${mode.padEnd(7)}${String(files.length).padStart(5)}  ${`${same} (${pct}%)`.padStart(12)}${(oldMs / files.length).toFixed(3).padStart(13)}${(newMs / files.length).toFixed(3).padStart(13)}\n`,
    );
  }
}

const show = Number(args.show);
if (diffs.length && show > 0) process.stdout.write(`\nFirst differences (${Math.min(show, diffs.length)} of ${diffs.length}; - old, + new):\n`);
for (const d of diffs.slice(0, show)) process.stdout.write(`\n${d.corpus}/${d.file} [${d.mode}]\n${firstDifference(d.old, d.now, context)}\n`);
if (args.dump) {
  mkdirSync(args.dump, { recursive: true });
  for (const d of diffs) {
    const stem = join(args.dump, `${d.corpus}-${d.mode}-${basename(d.file).replace(/\.html?$/, '')}`);
    writeFileSync(stem + '.old.md', d.old + '\n');
    writeFileSync(stem + '.new.md', d.now + '\n');
  }
  process.stdout.write(`\nwrote ${diffs.length * 2} files to ${args.dump}\n`);
}
