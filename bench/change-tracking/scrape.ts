#!/usr/bin/env bun
/**
 * What change tracking adds to a scrape (issue 20): ms per scrape through a real Trawl (in-process,
 * embedded database, no model) of fixture pages on 127.0.0.1, `formats: ["markdown"]` against
 * `["markdown", {type: "changeTracking", modes: ["git-diff"]}]` (which never caches: the fair baseline is
 * markdown with `storeInCache: false`), with every page changed between
 * rounds (so the second round diffs every page), and the `page_versions` rows and bytes afterwards.
 *
 *   bun bench/change-tracking/scrape.ts [--pages 50] [--threads N (TRAWL_CONTENT_THREADS)]
 *
 * Prints a table and a JSON summary on the last line.
 */
import { parseArgs } from 'node:util';
import { serveFixtures } from '../../test/helpers/fixture-site.ts';
import { startTrawl } from '../../test/helpers/trawl.ts';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '50' }, threads: { type: 'string' } } });
const PAGES = Number(values.pages);
let round = 0;
const body = (i: number) =>
  `<html><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1>${Array.from({ length: 30 }, (_, p) => `<p>Paragraph ${p} of page ${i}: the harbour opens at dawn and closes at dusk; ferries leave every ${p + 1} hours.</p>`).join('')}<p>Round ${round}.</p></main></body></html>`;
const site = serveFixtures({ '/p': (_req, url) => new Response(body(Number(url.searchParams.get('i'))), { headers: { 'content-type': 'text/html' } }) });
const trawl = await startTrawl({ TRAWL_AUTH: 'off', ...(values.threads !== undefined ? { TRAWL_CONTENT_THREADS: values.threads } : {}) });

const pass = (formats: unknown[]) => passWith(formats, {});

async function passWith(formats: unknown[], extra: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < PAGES; i++) {
    const r = await trawl.post('/v2/scrape', { url: site.url(`/p?i=${i}`), formats, maxAge: 0, ...extra });
    if (r.status !== 200) throw new Error(`scrape answered ${r.status}: ${r.text.slice(0, 200)}`);
  }
  return (performance.now() - started) / PAGES;
}

const tracking = ['markdown', { type: 'changeTracking', modes: ['git-diff'] }];
const rows: { run: string; msPerScrape: number }[] = [];
try {
  // Warm-up (JIT, pools); the baseline does not store in the cache either (change tracking never
  // caches: storeInCache off means no cache write and no search-index write for both).
  await pass(['markdown']);
  await pass(['markdown']);
  rows.push({ run: 'markdown (storeInCache: true, the default)', msPerScrape: await pass(['markdown']) });
  rows.push({ run: 'markdown (storeInCache: false)', msPerScrape: await passWith(['markdown'], { storeInCache: false }) });
  rows.push({ run: 'markdown + changeTracking (new: first version kept)', msPerScrape: await pass(tracking) });
  round++;
  rows.push({ run: 'markdown + changeTracking (changed: diffed and replaced)', msPerScrape: await pass(tracking) });
  rows.push({ run: 'markdown + changeTracking (same)', msPerScrape: await pass(tracking) });
  const [stats] = await trawl.running.services.db.query<{ rows: number; total: number; md: number }>(
    "SELECT count(*)::int AS rows, pg_total_relation_size('page_versions')::int8 AS total, avg(octet_length(markdown))::float8 AS md FROM page_versions",
  );
  console.log('| run | ms/scrape |');
  console.log('|---|---:|');
  for (const r of rows) console.log(`| ${r.run} | ${r.msPerScrape.toFixed(1)} |`);
  console.log(`page_versions: ${stats!.rows} rows, ${stats!.total} bytes in all (${Math.round(stats!.total / stats!.rows)} bytes/version; markdown ${Math.round(stats!.md)} bytes)`);
  console.log(JSON.stringify({ pages: PAGES, rows, versions: stats }));
} finally {
  await trawl.stop();
  site.stop();
}
