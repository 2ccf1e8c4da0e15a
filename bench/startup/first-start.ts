#!/usr/bin/env bun
/**
 * First start, restart and idle CPU of the compiled binary (issue 22 scope 3): `trawl serve` on an
 * empty data directory until the first `/ready` 200 (ms from spawn, RSS then and the peak, of the
 * process and its children), then stopped (SIGTERM) and started again on the same directory
 * (restart), then left idle: CPU time used over `--idle` seconds, as % of one core.
 *
 * Binaries given with `--binary` (two or more) run alternately, `--rounds` times each, so the
 * machine's load falls on both sides alike. Build them with `bun bin/build.ts --outfile <path>` from
 * the two commits to compare.
 *
 *   bun bench/startup/first-start.ts --binary /tmp/trawl-before --binary dist/trawl [--rounds 3] [--idle 30]
 *
 * Prints a table and a JSON summary on the last line.
 */
import { parseArgs } from 'node:util';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const { values } = parseArgs({ options: { binary: { type: 'string', multiple: true }, rounds: { type: 'string', default: '3' }, idle: { type: 'string', default: '30' } } });
const binaries = values.binary ?? [];
if (binaries.length === 0) throw new Error('give --binary at least once');
const TICK = 100; // clock ticks per second (Linux USER_HZ)

/** Resident memory of `pid` and its descendants, MB; and their peak (VmHWM), MB. */
function memory(pid: number): { rss: number; peak: number } {
  const pids = [pid, ...descendants(pid)];
  let rss = 0;
  let peak = 0;
  for (const p of pids) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      peak += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      // gone
    }
  }
  return { rss: Math.round(rss), peak: Math.round(peak) };
}

function descendants(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d), ...descendants(Number(d)));
    } catch {
      // gone
    }
  }
  return out;
}

/** CPU ticks (user + system) of `pid`, its threads included. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function startOnce(binary: string, dataDir: string) {
  const port = await freePort();
  const home = mkdtempSync(join(tmpdir(), 'trawl-start-home-'));
  const started = performance.now();
  const proc = Bun.spawn([binary, 'serve'], {
    cwd: home,
    env: { PATH: '/usr/bin:/bin', HOME: home, PORT: String(port), HOST: '127.0.0.1', TRAWL_DATA_DIR: dataDir, TRAWL_LOG_LEVEL: 'warn' },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  let peak = 0;
  for (;;) {
    peak = Math.max(peak, memory(proc.pid).rss);
    if (proc.exitCode !== null) throw new Error(`${binary} exited ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (performance.now() - started > 120_000) throw new Error(`${binary}: not ready in 120 s`);
    await Bun.sleep(10);
  }
  const ms = performance.now() - started;
  const mem = memory(proc.pid);
  return { proc, port, home, ms: Math.round(ms), rss: mem.rss, peak: Math.max(peak, mem.peak) };
}

async function stop(run: { proc: ReturnType<typeof Bun.spawn>; home: string }) {
  run.proc.kill('SIGTERM');
  const exited = await Promise.race([run.proc.exited.then(() => true), Bun.sleep(20_000).then(() => false)]);
  if (!exited) run.proc.kill('SIGKILL');
  await run.proc.exited;
  rmSync(run.home, { recursive: true, force: true });
}

type Row = { binary: string; round: number; firstMs: number; firstRss: number; firstPeak: number; restartMs: number; restartRss: number; restartPeak: number; idleCpuPct: number };
const rows: Row[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  const order = round % 2 ? [...binaries].reverse() : binaries;
  for (const binary of order) {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'trawl-start-')), 'data');
    const first = await startOnce(binary, dataDir);
    await stop(first);
    const again = await startOnce(binary, dataDir);
    await Bun.sleep(5_000); // let start-up work settle
    const t0 = cpuTicks(again.proc.pid);
    const w0 = performance.now();
    await Bun.sleep(Number(values.idle) * 1000);
    const idleCpuPct = (((cpuTicks(again.proc.pid) - t0) / TICK) * 1000 * 100) / (performance.now() - w0);
    await stop(again);
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
    rows.push({ binary: basename(binary), round, firstMs: first.ms, firstRss: first.rss, firstPeak: first.peak, restartMs: again.ms, restartRss: again.rss, restartPeak: again.peak, idleCpuPct: Number(idleCpuPct.toFixed(2)) });
    const r = rows.at(-1)!;
    console.log(`${r.binary.padEnd(16)} round ${round}: first ${r.firstMs} ms ${r.firstRss} MB (peak ${r.firstPeak}), restart ${r.restartMs} ms ${r.restartRss} MB (peak ${r.restartPeak}), idle ${r.idleCpuPct}% CPU`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const summary = Object.fromEntries(binaries.map((b) => {
  const rs = rows.filter((r) => r.binary === basename(b));
  return [basename(b), Object.fromEntries((['firstMs', 'firstRss', 'firstPeak', 'restartMs', 'restartRss', 'restartPeak', 'idleCpuPct'] as const).map((k) => [k, median(rs.map((r) => r[k]))]))];
}));
console.log('\nmedians:');
for (const [b, s] of Object.entries(summary)) console.log(b.padEnd(16), JSON.stringify(s));
console.log(JSON.stringify({ rounds: Number(values.rounds), idleSeconds: Number(values.idle), summary, rows }));
