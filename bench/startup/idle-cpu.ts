/**
 * Settled idle CPU of `trawl serve` (issue 22 scope 3: "an idle server uses no CPU"): starts each side
 * on an empty data directory, waits for `/ready`, lets it settle for `--settle` s, then reads the CPU
 * the process used over `--idle` s (% of one core) and which threads used it (clock ticks per thread
 * name, from /proc/<pid>/task). Sides run alternately, `--rounds` times. A side is a command line:
 *
 *   bun bench/startup/idle-cpu.ts --side "bun /work/main/bin/trawl.ts" --side "dist/trawl" [--settle 60] [--idle 60] [--rounds 1]
 *
 * `serve` is appended to each side. Prints one line per run and a JSON summary.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { side: { type: 'string', multiple: true }, settle: { type: 'string', default: '60' }, idle: { type: 'string', default: '60' }, rounds: { type: 'string', default: '1' } },
});
const sides = values.side ?? [];
if (sides.length === 0) throw new Error('give --side at least once');
const TICK = 100; // clock ticks per second (Linux USER_HZ)

/** CPU ticks (user + system) per thread of `pid`, keyed by `name#tid`. */
function threadTicks(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${name}#${tid}`, Number(f[11]) + Number(f[12]));
    } catch {
      // thread gone
    }
  }
  return out;
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function measure(side: string) {
  const port = await freePort();
  const home = mkdtempSync(join(tmpdir(), 'trawl-idle-'));
  const proc = Bun.spawn([...side.split(' '), 'serve'], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, PORT: String(port), HOST: '127.0.0.1', TRAWL_DATA_DIR: join(home, 'data'), TRAWL_LOG_LEVEL: 'warn' },
    stdout: 'ignore',
    stderr: 'inherit',
  });
  try {
    const started = performance.now();
    while (!(await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.status === 200, () => false))) {
      if (proc.exitCode !== null || performance.now() - started > 120_000) throw new Error(`${side}: not ready`);
      await Bun.sleep(50);
    }
    await Bun.sleep(Number(values.settle) * 1000);
    const before = threadTicks(proc.pid);
    const w0 = performance.now();
    await Bun.sleep(Number(values.idle) * 1000);
    const after = threadTicks(proc.pid);
    const ms = performance.now() - w0;
    const threads: Record<string, number> = {};
    let total = 0;
    for (const [k, v] of after) {
      const d = v - (before.get(k) ?? 0);
      total += d;
      if (d > 0) threads[k] = d;
    }
    return { side, idleCpuPct: Number(((total / TICK) * 1000 * 100 / ms).toFixed(3)), ticks: total, threads };
  } finally {
    proc.kill('SIGTERM');
    await proc.exited;
    rmSync(home, { recursive: true, force: true });
  }
}

const rows = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const side of sides) {
    const r = await measure(side);
    rows.push({ round, ...r });
    console.log(`${side} round ${round}: idle ${r.idleCpuPct}% of a core (${r.ticks} ticks) ${JSON.stringify(r.threads)}`);
  }
}
console.log(JSON.stringify({ settleS: Number(values.settle), idleS: Number(values.idle), rows }));
