#!/usr/bin/env bun
/**
 * Search index write cost per page: the JavaScript analyzer (core/search/analyzer.ts) against the
 * database's `to_tsvector('english', ...)`, on the text of the postgresql-doc-15 manual's pages
 * (apt-get install -y postgresql-doc-15). Reports, in ms per page:
 *   - analyzer: toTsvector in JavaScript;
 *   - to_tsvector: the database computing the tsvector (what the generated column did before 0008);
 *   - read literal: the database reading the analyzer's tsvector literal.
 *
 *   bun bench/search/analyzer.ts [pglite|postgres]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTestDatabase } from '../../test/helpers/db.ts';
import type { DatabaseKind } from '../../core/db/client.ts';
import { toTsvector } from '../../core/search/analyzer.ts';

const kind = (process.argv[2] ?? 'pglite') as DatabaseKind;
const DIR = '/usr/share/doc/postgresql-doc-15/html';
const texts = readdirSync(DIR)
  .filter((f) => f.endsWith('.html'))
  .map((f) => readFileSync(join(DIR, f), 'utf8').replace(/<(script|style)[\s\S]*?<\/\1>/g, '').replace(/<[^>]+>/g, ' ').replace(/&\w+;/g, ' ').replace(/\s+/g, ' '));
const BATCH = 50;

/** ms per page of `run` over every page in batches of 50, best of 3 rounds (the first warms up). */
async function perPage(run: (batch: string[]) => unknown): Promise<number> {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    for (let i = 0; i < texts.length; i += BATCH) await run(texts.slice(i, i + BATCH));
    best = Math.min(best, (performance.now() - t0) / texts.length);
  }
  return best;
}

const t = await openTestDatabase(kind);
try {
  const literals = texts.map((x) => toTsvector([{ text: x, weight: 'C' }]));
  const analyzer = await perPage((batch) => batch.map((x) => toTsvector([{ text: x, weight: 'C' }])));
  const database = await perPage((batch) => t.db.query(`select sum(length(to_tsvector('english', x))) from unnest($1::text[]) x`, [batch]));
  let at = 0;
  const read = await perPage(async (batch) => {
    await t.db.query(`select sum(length(x::tsvector)) from unnest($1::text[]) x`, [literals.slice(at, at + batch.length)]);
    at = (at + batch.length) % literals.length;
  });
  const chars = Math.round(texts.reduce((a, x) => a + x.length, 0) / texts.length);
  const result = { database: kind, pages: texts.length, avgChars: chars, analyzerMs: analyzer, toTsvectorMs: database, readLiteralMs: read };
  process.stdout.write(`${texts.length} pages of ${chars} chars: analyzer ${analyzer.toFixed(3)} ms/page, to_tsvector ${database.toFixed(3)} ms/page, ` +
    `reading the literal ${read.toFixed(3)} ms/page (${kind})\n${JSON.stringify(result)}\n`);
} finally {
  await t.close();
}
