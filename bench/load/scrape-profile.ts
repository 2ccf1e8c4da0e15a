#!/usr/bin/env bun
/**
 * Where one API scrape's database time goes (issue 22 part 4): starts Trawl in this process with the
 * embedded database on the calling thread, counts and times every SQL statement PGlite runs, and
 * sends `--scrapes` sequential `POST /v2/scrape` requests for a fixture page on 127.0.0.1. Prints,
 * per scrape, the statements by kind (normalized SQL), how many of each and their mean time, then
 * the totals: statements per scrape, database ms per scrape, wall ms per scrape.
 *
 *   bun bench/load/scrape-profile.ts [--scrapes 200] [--cached] [--zdr]
 *
 * `--cached` asks with maxAge so every scrape after the first is a cache hit; `--zdr` asks for zero
 * data retention. Times are from the calling thread (PGlite runs inline here, unlike `serve`, where it
 * runs in a worker thread); on a loaded machine compare counts, and times only within one run.
 */
import { parseArgs } from 'node:util';
import { serveNoticeSite } from './notice-site.ts';
import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../core/config.ts';
import { createLogger } from '../../core/log.ts';
import { start } from '../../core/runtime.ts';

const { values } = parseArgs({
  options: {
    scrapes: { type: 'string', default: '200' },
    cached: { type: 'boolean', default: false },
    zdr: { type: 'boolean', default: false },
    'max-age': { type: 'string' },
  },
});
const N = Number(values.scrapes);

interface Stat {
  n: number;
  ms: number;
}
const stats = new Map<string, Stat>();
let recording = false;
const norm = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 110);
function record(sql: string, ms: number): void {
  if (!recording) return;
  const k = norm(sql);
  const s = stats.get(k) ?? { n: 0, ms: 0 };
  s.n++;
  s.ms += ms;
  stats.set(k, s);
}
function timed<F extends (...a: any[]) => Promise<any>>(fn: F, label: (a: any[]) => string): F {
  return (async function (this: unknown, ...args: any[]) {
    const t0 = performance.now();
    try {
      return await fn.apply(this, args);
    } finally {
      record(label(args), performance.now() - t0);
    }
  }) as F;
}
const proto = PGlite.prototype as any;
const origTx = proto.transaction;
proto.query = timed(proto.query, (a) => a[0]);
proto.exec = timed(proto.exec, (a) => a[0]);
proto.transaction = async function (this: unknown, fn: (tx: any) => Promise<unknown>) {
  const t0 = performance.now();
  try {
    return await origTx.call(this, (tx: any) =>
      fn({ ...tx, query: timed(tx.query.bind(tx), (a) => `  (tx) ${a[0]}`), exec: timed(tx.exec.bind(tx), (a) => `  (tx) ${a[0]}`) }),
    );
  } finally {
    record('TRANSACTION (whole)', performance.now() - t0);
  }
};

const fixture = serveNoticeSite();

// Inline PGlite so the prototype patch above sees every statement.
const dataDir = mkdtempSync(join(tmpdir(), 'trawl-profile-'));
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', TRAWL_DATA_DIR: dataDir, TRAWL_ALLOW_PRIVATE_TARGETS: 'true' });
let adminKey = '';
const running = await start('serve', config, createLogger('silent'), (k) => (adminKey = k), { pgliteThread: 'inline' });
const base = `http://127.0.0.1:${running.port}`;
const headers = { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` };
const trawl = {
  async post(path: string, b: unknown, h: Record<string, string>) {
    const res = await fetch(base + path, { method: 'POST', headers: h, body: JSON.stringify(b) });
    return { status: res.status, text: await res.text() };
  },
  async stop() {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  },
};
const body = (i: number) => ({
  url: fixture.url(values.cached ? 1 : i),
  ...(values.cached ? { maxAge: 3_600_000 } : {}),
  ...(values.zdr ? { zeroDataRetention: true } : {}),
  ...(values['max-age'] !== undefined ? { maxAge: Number(values['max-age']) } : {}),
});
// Warm-up (JIT, the cache entry for --cached).
for (let i = 0; i < 5; i++) await trawl.post('/v2/scrape', body(N + i), headers);
recording = true;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const r = await trawl.post('/v2/scrape', body(i), headers);
  if (r.status !== 200) throw new Error(`scrape ${i}: ${r.status} ${r.text.slice(0, 300)}`);
}
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
recording = false;

let count = 0;
let ms = 0;
const rows = [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms);
for (const [sql, s] of rows) {
  if (!sql.startsWith('  (tx)') && sql !== 'TRANSACTION (whole)') {
    count += s.n;
    ms += s.ms;
  }
  if (sql.startsWith('  (tx)')) count += s.n;
  console.log(`${(s.n / N).toFixed(2).padStart(6)}/scrape ${(s.ms / s.n).toFixed(2).padStart(7)} ms  ${sql}`);
}
const txMs = stats.get('TRANSACTION (whole)')?.ms ?? 0;
// CPU of this whole process (client, server and inline database) per scrape, ms.
const cpuMs = (cpu.user + cpu.system) / 1000 / N;
console.log(`\nstatements/scrape ${(count / N).toFixed(1)}  db ms/scrape ${((ms + txMs) / N).toFixed(2)}  wall ms/scrape ${(wall / N).toFixed(2)}  process cpu ms/scrape ${cpuMs.toFixed(2)}`);
console.log(JSON.stringify({ scrapes: N, cached: values.cached, zdr: values.zdr, maxAge: values['max-age'] ?? null, statementsPerScrape: count / N, dbMsPerScrape: (ms + txMs) / N, wallMsPerScrape: wall / N, cpuMsPerScrape: cpuMs }));
await trawl.stop();
fixture.stop();
process.exit(0);
