/**
 * Monitor benchmark (issue 20 closing note): a monitor of 100 fixture pages (one scrape target),
 * checked three times: all new, all the same, 10 changed. For each check: its duration (queued to
 * finished, and the run call to the end as a client sees it), database rows written per check (rows
 * added to every table), bytes per stored page version and per monitor page row. One JSON line at the end.
 *
 *   bun bench/monitor/checks.ts               # trawl serve in-process, embedded PGlite
 *   bun bench/monitor/checks.ts --postgres    # the same on a fresh database of the local PostgreSQL
 *   bun bench/monitor/checks.ts --pages 300
 */
import { parseArgs } from 'node:util';
import { startTrawl } from '../../test/helpers/trawl.ts';
import { createTestDatabaseConfig } from '../../test/helpers/db.ts';
import { serveFixtures } from '../../test/helpers/fixture-site.ts';

const { values } = parseArgs({ options: { postgres: { type: 'boolean' }, pages: { type: 'string' } } });
const PAGES = Number(values.pages ?? 100);
let version = 1;

/** A page of ~6 KB of text so markdown, diffs and versions have a realistic size. */
const page = (i: number, v: number) =>
  `<html><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1>` +
  Array.from({ length: 30 }, (_, p) => `<p>Paragraph ${p} of page ${i}: the harbour timetable lists ferries, tides and notices for the week${p === 3 ? ` (revision ${v})` : ''}.</p>`).join('') +
  '</main></body></html>';
const changed = new Set(Array.from({ length: 10 }, (_, i) => i * 7));
const site = serveFixtures(Object.fromEntries(Array.from({ length: PAGES }, (_, i) => [`/p/${i}`, () => new Response(page(i, changed.has(i) ? version : 1), { headers: { 'content-type': 'text/html' } })])));

const db = values.postgres ? await createTestDatabaseConfig('postgres') : undefined;
const trawl = await startTrawl({ TRAWL_AUTH: 'off', ...(db ? { DATABASE_URL: db.config.databaseUrl! } : {}) });
const q = trawl.running.services.db;

async function tableCounts(): Promise<Record<string, number>> {
  const tables = await q.query<{ t: string }>(`select tablename as t from pg_tables where schemaname = 'public' order by tablename`);
  const out: Record<string, number> = {};
  for (const { t } of tables) out[t] = Number((await q.query<{ n: number }>(`select count(*)::int as n from "${t}"`))[0].n);
  return out;
}

const created = await trawl.post('/v2/monitor', {
  name: 'bench', schedule: { cron: '0 0 1 1 *' },
  targets: [{ type: 'scrape', urls: Array.from({ length: PAGES }, (_, i) => site.url(`/p/${i}`)) }],
});
if (created.status !== 200) throw new Error(created.text);
const id = created.body.data.id;
const results: Record<string, unknown>[] = [];
for (const label of ['new', 'same', 'changed']) {
  if (label === 'changed') version = 2;
  const before = await tableCounts();
  const t0 = performance.now();
  const run = await trawl.post(`/v2/monitor/${id}/run`, {});
  let check: any;
  for (;;) {
    check = (await trawl.get(`/v2/monitor/${id}/checks/${run.body.data.id}?limit=1`)).body.data;
    if (check.status !== 'queued' && check.status !== 'running') break;
    await Bun.sleep(50);
  }
  const clientMs = Math.round(performance.now() - t0);
  const after = await tableCounts();
  const rows = Object.fromEntries(Object.entries(after).map(([t, n]) => [t, n - (before[t] ?? 0)]).filter(([, d]) => d !== 0));
  const total = (Object.values(rows) as number[]).reduce((a, b) => a + b, 0);
  const checkMs = new Date(check.finishedAt).getTime() - new Date(check.createdAt).getTime();
  results.push({ label, status: check.status, summary: check.summary, checkMs, clientMs, rowsAdded: total, rowsByTable: rows });
  console.log(`${label.padEnd(8)} ${check.status} ${JSON.stringify(check.summary)} check ${checkMs} ms, client ${clientMs} ms, +${total} rows ${JSON.stringify(rows)}`);
}
const [versions] = await q.query<{ n: number; bytes: number; md: number }>(
  `select count(*)::int as n, coalesce(avg(pg_column_size(v.*)), 0)::int as bytes, coalesce(avg(octet_length(markdown)), 0)::int as md from page_versions v`,
);
const [pages] = await q.query<{ n: number; bytes: number }>(`select count(*)::int as n, coalesce(avg(pg_column_size(p.*)), 0)::int as bytes from monitor_pages p`);
console.log(`page versions: ${versions.n} rows, ${versions.bytes} bytes per row (markdown ${versions.md} bytes); monitor pages: ${pages.n} rows, ${pages.bytes} bytes per row`);
console.log(JSON.stringify({ pages: PAGES, database: db ? 'postgres' : 'pglite', checks: results.map(({ rowsByTable: _r, ...r }) => r), pageVersionBytes: versions.bytes, monitorPageBytes: pages.bytes }));
await trawl.stop();
await db?.cleanup();
site.stop();
