/**
 * Main-content benchmark: token F1 of Trawl's `onlyMainContent` markdown against gold text, per corpus.
 *
 *   bun bench/main-content/run.ts [--per-corpus 25] [--corpus name] [--worst 5] [--no-readability]
 *
 * Rows per corpus: `main` (onlyMainContent: true), `full` (onlyMainContent: false, what a naive
 * converter returns) and `readability` (readability-lxml from the Debian package python3-readability,
 * its summary HTML converted by the same markdown converter; skipped when not installed).
 * Columns: token F1 of the markdown as returned (`md`), of the markdown reduced to text (`text`: link
 * URLs and syntax removed, isolating extraction quality), 4-gram shingle F1 of the text, and recall and
 * precision of the text. Inputs are installed Debian documentation and test/fixtures/pages.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { cleanHtml } from '../../parsers/html/clean.ts';
import { htmlToMarkdown } from '../../formats/markdown/convert.ts';
import { debianPages, fixturePages, goldText, type Page } from './corpora.ts';
import { markdownToText, mean, shingleF1, tokenF1 } from './f1.ts';

const ROOT = join(import.meta.dir, '../..');
const { values: args } = parseArgs({
  options: {
    'per-corpus': { type: 'string', default: '25' },
    corpus: { type: 'string' },
    worst: { type: 'string', default: '3' },
    'no-readability': { type: 'boolean', default: false },
  },
});

interface Row {
  page: Page;
  md: number;
  text: number;
  shingle: number;
  recall: number;
  precision: number;
  ms: number;
}

function score(page: Page, md: string, gold: string, ms: number): Row {
  const text = markdownToText(md);
  const t = tokenF1(text, gold);
  return { page, md: tokenF1(md, gold).f1, text: t.f1, shingle: shingleF1(text, gold).f1, recall: t.recall, precision: t.precision, ms };
}

async function readabilityOutputs(pages: Page[]): Promise<Map<string, string> | undefined> {
  if (args['no-readability']) return undefined;
  const proc = Bun.spawn(['/usr/bin/python3', join(import.meta.dir, 'readability-baseline.py')], { stdin: 'pipe', stdout: 'pipe', stderr: 'ignore' });
  proc.stdin.write(JSON.stringify(pages.map((p) => p.file)));
  proc.stdin.end();
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) return undefined;
  return new Map(Object.entries(JSON.parse(out) as Record<string, string>));
}

const pages = [...(await fixturePages(ROOT)), ...debianPages(Number(args['per-corpus']))].filter((p) => !args.corpus || p.corpus === args.corpus);
const readability = await readabilityOutputs(pages);
const rows: Record<'main' | 'full' | 'readability', Row[]> = { main: [], full: [], readability: [] };

for (const page of pages) {
  const html = await Bun.file(page.file).text();
  const gold = goldText(html, page);
  if (!gold) continue;
  for (const mode of ['main', 'full'] as const) {
    const t0 = performance.now();
    const md = htmlToMarkdown(cleanHtml(html, { url: page.url, onlyMainContent: mode === 'main' }));
    rows[mode].push(score(page, md, gold, performance.now() - t0));
  }
  const r = readability?.get(page.file);
  if (r !== undefined) rows.readability.push(score(page, htmlToMarkdown(cleanHtml(r, { url: page.url, onlyMainContent: false })), gold, 0));
}

const fmt = (x: number) => x.toFixed(3);
const corpora = [...new Set(pages.map((p) => p.corpus))];
console.log('corpus            system       pages  md-F1  text-F1  shingle  recall  precision  ms/page');
for (const c of [...corpora, 'ALL']) {
  for (const sys of ['main', 'full', 'readability'] as const) {
    const rs = rows[sys].filter((r) => c === 'ALL' || r.page.corpus === c);
    if (!rs.length) continue;
    console.log(
      `${c.padEnd(17)} ${sys.padEnd(12)} ${String(rs.length).padStart(5)}  ${fmt(mean(rs.map((r) => r.md)))}  ${fmt(mean(rs.map((r) => r.text)))}    ${fmt(mean(rs.map((r) => r.shingle)))}   ${fmt(mean(rs.map((r) => r.recall)))}   ${fmt(mean(rs.map((r) => r.precision)))}      ${mean(rs.map((r) => r.ms)).toFixed(0)}`,
    );
  }
}
const worst = Number(args.worst);
if (worst > 0) {
  console.log('\nworst pages (main, text-F1):');
  for (const c of corpora) {
    const rs = rows.main.filter((r) => r.page.corpus === c).sort((a, b) => a.text - b.text).slice(0, worst);
    for (const r of rs) console.log(`  ${c.padEnd(17)} ${fmt(r.text)}  R=${fmt(r.recall)} P=${fmt(r.precision)}  ${r.page.file}`);
  }
}
