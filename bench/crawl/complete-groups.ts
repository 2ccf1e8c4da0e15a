#!/usr/bin/env bun
/**
 * Database CPU per stored crawl page by group size: the 1,169 pages of postgresql-doc-15 (bodies of
 * pg-docs size: the page text, at most 40,000 characters, in a JSON document) are completed through
 * `completePage` (group of 1) or `completePages` (groups of n) on an embedded PGlite running in this
 * thread, so process CPU time is the database's work plus the client's, whatever else the machine
 * runs. Every group size gets a fresh crawl of its own; each page's completion also claims a next
 * page (chain) as a crawl's does. core/store/crawl-claims.ts uses the result to size its groups.
 *
 *   bun bench/crawl/complete-groups.ts                 # sizes 1,4,8,16, twice
 *   bun bench/crawl/complete-groups.ts --sizes 1,8,32
 *
 * Prints one line per size: pages, wall ms, CPU ms, CPU ms per page.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../core/db/client.ts';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { newId } from '../../core/ids.ts';
import { claimUrl, completePage, completePages, type ClaimedUrl } from '../../core/store/crawl-claims.ts';

const HTML = '/usr/share/doc/postgresql-doc-15/html';
const { values: args } = parseArgs({ options: { sizes: { type: 'string', default: '1,4,8,16,1,4,8,16' } } });

let files: string[];
try {
  files = readdirSync(HTML).filter((f) => f.endsWith('.html'));
} catch {
  process.stderr.write('postgresql-doc-15 is not installed: apt-get install -y postgresql-doc-15\n');
  process.exit(2);
}
const bodies = files.map((f) =>
  JSON.stringify({ markdown: readFileSync(join(HTML, f), 'utf8').replace(/<[^>]+>/g, '').slice(0, 40_000), metadata: { url: f, statusCode: 200, title: f } }),
);
const dir = mkdtempSync(join(tmpdir(), 'trawl-groups-'));
const db = await openDatabase(loadConfig({ TRAWL_DATA_DIR: dir, TRAWL_LOG_LEVEL: 'silent' }), silentLogger, { pgliteThread: 'inline' });
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
try {
  await db.query(`insert into teams (id, name, credits, concurrency) values ('bench', 'bench', 1000000000, 20) on conflict do nothing`);
  for (const size of args.sizes!.split(',').map(Number)) {
    const job = newId();
    await db.query(
      `insert into crawl_jobs (id, team_id, kind, options, concurrency, delay_ms, url_limit, accepted, next_ordinal, kickoff)
       values ($1, 'bench', 'crawl', '{}', 2000, 0, 5000, 0, 0, 'done')`,
      [job],
    );
    const ids = files.map(() => newId());
    await db.query(
      `insert into crawl_urls (job_id, url_key, id, url, source_url, depth, external, status, enqueues)
       select $1, k, i, k, k, 0, false, 'queued', 1 from unnest($2::text[], $3::text[]) as x(k, i)`,
      [job, files, ids],
    );
    const claims: ClaimedUrl[] = [];
    for (const id of ids) claims.push((await claimUrl(db, id, 1, 15_000))!);
    const cpu0 = cpuMs();
    const t0 = performance.now();
    for (let i = 0; i < claims.length; i += size) {
      const group = claims.slice(i, i + size).map((claim, j) => ({
        claim, chainLeaseMs: 15_000, page: { teamId: 'bench', url: claim.url, statusCode: 200, body: bodies[i + j], credits: 1, discovered: [] },
      }));
      if (group.length === 1) await completePage(db, group[0].claim, group[0].page, 15_000);
      else await completePages(db, group);
    }
    const cpu = cpuMs() - cpu0;
    process.stdout.write(`group ${size}: ${claims.length} pages, ${(performance.now() - t0).toFixed(0)} ms, ${cpu.toFixed(0)} CPU ms, ${(cpu / claims.length).toFixed(3)} CPU ms/page\n`);
  }
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
