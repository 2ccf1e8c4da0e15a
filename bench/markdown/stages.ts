#!/usr/bin/env bun
/**
 * Where one HTML page's CPU goes on the way to markdown, stage by stage, over the postgresql-doc-15
 * manual (or a directory given as the first argument): parse + metadata (the HTML parser), cleanHtml
 * (parse, cleanup, main content, serialize), htmlToMarkdown, and link extraction. Prints ms per page
 * per stage.   bun bench/markdown/stages.ts [dir]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHtml } from '../../parsers/html/dom.ts';
import { extractMetadata } from '../../parsers/html/metadata.ts';
import { cleanHtml } from '../../parsers/html/clean.ts';
import { htmlToMarkdown } from '../../formats/markdown/convert.ts';
import { extractLinks } from '../../core/crawl/links.ts';

const dir = process.argv[2] ?? '/usr/share/doc/postgresql-doc-15/html';
const pages = readdirSync(dir).filter((f) => f.endsWith('.html')).map((f) => ({ url: `http://127.0.0.1/${f}`, html: readFileSync(join(dir, f), 'utf8') }));
const totals: Record<string, number> = {};
function time<T>(name: string, fn: () => T): T {
  const t = performance.now();
  const r = fn();
  totals[name] = (totals[name] ?? 0) + performance.now() - t;
  return r;
}
for (let round = 0; round < 2; round++) {
  for (const k of Object.keys(totals)) delete totals[k];
  for (const p of pages) {
    time('metadata (parse + extract)', () => extractMetadata(parseHtml(p.html), p.url));
    const cleaned = time('cleanHtml', () => cleanHtml(p.html, { url: p.url, onlyMainContent: true }));
    time('htmlToMarkdown', () => htmlToMarkdown(cleaned));
    time('extractLinks', () => extractLinks(p.html, p.url));
  }
}
const mb = pages.reduce((n, p) => n + p.html.length, 0) / 2 ** 20;
process.stdout.write(`${pages.length} pages, ${mb.toFixed(1)} MiB\n`);
for (const [k, v] of Object.entries(totals)) process.stdout.write(`${k.padEnd(28)} ${(v / pages.length).toFixed(2)} ms/page\n`);
process.stdout.write(`${'total'.padEnd(28)} ${(Object.values(totals).reduce((a, b) => a + b, 0) / pages.length).toFixed(2)} ms/page\n`);
