#!/usr/bin/env bun
/**
 * Model-formats benchmark (issue 18): milliseconds per page of the deterministic paths (no model
 * configured) of json, summary, question, highlights and onlyCleanContent, through the real
 * pipeline step (`buildDocument`, html parser, markdown needed first), against markdown alone as
 * the baseline row (a format's own cost is its row minus the baseline):
 * - on the known fixture pages of test/model-formats/fixtures.ts (small product, article, recipe,
 *   event pages; json with their schemas);
 * - on the PostgreSQL manual (/usr/share/doc/postgresql-doc-15/html, Debian's postgresql-doc-15):
 *   the `--pages` largest pages (json with a generic article schema).
 *
 *   bun bench/model-formats/run.ts [--rounds 5] [--pages 20]
 *
 * Needs no network. Prints a table and a JSON summary on the last line.
 */
import { parseArgs } from 'node:util';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildWith } from '../../test/model-formats/build.ts';
import { KNOWN_PAGES } from '../../test/model-formats/fixtures.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, pages: { type: 'string', default: '20' } } });
const rounds = Number(values.rounds);
const PG = '/usr/share/doc/postgresql-doc-15/html';

const pgPages = readdirSync(PG)
  .filter((f) => f.endsWith('.html'))
  .map((f) => ({ f, size: statSync(join(PG, f)).size }))
  .sort((a, b) => b.size - a.size)
  .slice(0, Number(values.pages))
  .map(({ f }) => ({ html: readFileSync(join(PG, f), 'utf8'), schema: { type: 'object', properties: { title: { type: 'string' }, author: { type: 'string' }, version: { type: 'string' } } } }));

const fixtures = KNOWN_PAGES.map((p) => ({ html: p.html, schema: p.schema }));

const cases: { name: string; formats: (s: Record<string, unknown>) => unknown[]; scrape?: Record<string, unknown> }[] = [
  { name: 'markdown (baseline)', formats: () => ['markdown'] },
  { name: 'json', formats: (schema) => [{ type: 'json', schema }] },
  { name: 'summary', formats: () => ['summary'] },
  { name: 'question', formats: () => [{ type: 'question', question: 'How do I create an index on an expression?' }] },
  { name: 'highlights', formats: () => [{ type: 'highlights', query: 'transaction isolation level' }] },
  { name: 'onlyCleanContent', formats: () => ['markdown'], scrape: { onlyCleanContent: true } },
];

const rows: { format: string; where: string; pages: number; msPerPage: number }[] = [];
for (const [where, pages] of [['fixtures', fixtures], ['pg-docs', pgPages]] as const) {
  for (const c of cases) {
    for (const p of pages) await buildWith(p.html, c.formats(p.schema), { scrape: c.scrape }); // warm-up
    const started = performance.now();
    for (let r = 0; r < rounds; r++) for (const p of pages) await buildWith(p.html, c.formats(p.schema), { scrape: c.scrape });
    rows.push({ format: c.name, where, pages: pages.length, msPerPage: Number(((performance.now() - started) / (rounds * pages.length)).toFixed(2)) });
  }
}
console.log('format               where     pages  ms/page');
for (const r of rows) console.log(`${r.format.padEnd(20)} ${r.where.padEnd(9)} ${String(r.pages).padStart(5)}  ${r.msPerPage.toFixed(2).padStart(7)}`);
console.log(JSON.stringify({ rounds, rows }));
