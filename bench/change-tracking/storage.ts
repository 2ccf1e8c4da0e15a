#!/usr/bin/env bun
/**
 * Change-tracking storage bench (issue 20 closing note "storage per page version (bytes)"): keeps
 * page versions of generated markdown pages (three sizes, text sampled from the repository's own
 * README and docs so it compresses like prose, not like repeated filler) in a fresh `page_versions`
 * table and reports, per size and database driver:
 * - bytes per kept version: the table's total size (heap + TOAST + indexes, `pg_total_relation_size`)
 *   over the rows, and the row's own stored size (`pg_column_size`, after TOAST compression);
 * - ms per `keep` (upsert) and per `latest` (read), and ms per git-diff of a changed version.
 * Only the latest version per team, URL and tag is kept, so a page's storage stays one version.
 *
 *   bun bench/change-tracking/storage.ts [--pages 300] [--db pglite,postgres]
 *
 * Needs Postgres at 127.0.0.1:5432 for the postgres row (test/helpers/db.ts makes a scratch database).
 * Prints a table and a JSON summary on the last line.
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTestDatabase } from '../../test/helpers/db.ts';
import { pageVersionStore } from '../../core/page-versions/index.ts';
import { gitDiff } from '../../formats/change-tracking/compare.ts';
import type { DatabaseKind } from '../../core/db/client.ts';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '300' }, db: { type: 'string', default: 'pglite,postgres' } } });
const PAGES = Number(values.pages);
const ROOT = join(import.meta.dir, '../..');

// Prose to sample from: the repository's own documentation.
const corpus = ['README.md', 'docs/errors.md', 'docs/model-formats.md', 'docs/scaling.md', 'docs/support.md']
  .map((f) => readFileSync(join(ROOT, f), 'utf8'))
  .join('\n\n')
  .split(/\n{2,}/)
  .filter((p) => p.trim().length > 40);

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

/** A markdown page of about `bytes` bytes: a title and paragraphs sampled from the corpus. */
function page(i: number, bytes: number): string {
  let md = `# Page ${i}\n\n`;
  while (md.length < bytes) md += `${corpus[Math.floor(rand() * corpus.length)]}\n\n`;
  return md;
}

const SIZES = [{ name: 'small', bytes: 2_000 }, { name: 'medium', bytes: 10_000 }, { name: 'large', bytes: 50_000 }];

interface Row { db: DatabaseKind; size: string; markdownBytes: number; pages: number; tableBytesPerVersion: number; rowBytes: number; keepMs: number; latestMs: number; diffMs: number }

async function run(kind: DatabaseKind): Promise<Row[]> {
  const t = await openTestDatabase(kind);
  const out: Row[] = [];
  try {
    for (const size of SIZES) {
      await t.db.query('TRUNCATE page_versions');
      const store = pageVersionStore(t.db, `bench-${size.name}`);
      const pages = Array.from({ length: PAGES }, (_, i) => page(i, size.bytes));
      let started = performance.now();
      for (const [i, md] of pages.entries()) {
        await store.keep(`http://bench.test/${size.name}/${i}`, null, { scrapedAt: new Date(), gone: false, markdown: md, json: i % 2 ? { price: i, title: `Page ${i}` } : null });
      }
      const keepMs = (performance.now() - started) / PAGES;
      started = performance.now();
      for (let i = 0; i < PAGES; i++) await store.latest(`http://bench.test/${size.name}/${i}`, null);
      const latestMs = (performance.now() - started) / PAGES;
      // A second round of versions (each page changed): the table still holds one version per page.
      for (const [i, md] of pages.entries()) {
        await store.keep(`http://bench.test/${size.name}/${i}`, null, { scrapedAt: new Date(), gone: false, markdown: md.replace('# Page', '# Changed page'), json: null });
      }
      await t.db.query('VACUUM FULL page_versions');
      const [stats] = await t.db.query<{ total: number; rows: number; row_bytes: number }>(
        "SELECT pg_total_relation_size('page_versions')::int8 AS total, count(*)::int AS rows, avg(pg_column_size(p.*))::float8 AS row_bytes FROM page_versions p",
      );
      started = performance.now();
      const diffs = Math.min(PAGES, 50);
      for (let i = 0; i < diffs; i++) gitDiff(pages[i]!, `${pages[i]!.slice(0, pages[i]!.length / 2)}A changed paragraph.\n\n${pages[i]!.slice(pages[i]!.length / 2)}`);
      const diffMs = (performance.now() - started) / diffs;
      const avgMd = pages.reduce((s, p) => s + Buffer.byteLength(p), 0) / PAGES;
      out.push({
        db: kind, size: size.name, markdownBytes: Math.round(avgMd), pages: stats!.rows,
        tableBytesPerVersion: Math.round(stats!.total / stats!.rows), rowBytes: Math.round(stats!.row_bytes),
        keepMs: Number(keepMs.toFixed(2)), latestMs: Number(latestMs.toFixed(2)), diffMs: Number(diffMs.toFixed(2)),
      });
    }
  } finally {
    await t.close();
  }
  return out;
}

const rows: Row[] = [];
for (const kind of values.db!.split(',') as DatabaseKind[]) rows.push(...(await run(kind)));
console.log('| db | page | markdown bytes | versions kept | bytes/version (table) | bytes/row (stored) | keep ms | latest ms | git-diff ms |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.db} | ${r.size} | ${r.markdownBytes} | ${r.pages} | ${r.tableBytesPerVersion} | ${r.rowBytes} | ${r.keepMs} | ${r.latestMs} | ${r.diffMs} |`);
console.log(JSON.stringify({ pages: PAGES, rows }));
