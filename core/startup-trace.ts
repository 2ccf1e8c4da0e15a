/**
 * Start-up phase marks for bench/startup: with `TRAWL_STARTUP_TRACE=1` each `startupMark(phase)` writes
 * one line to stderr, `startup <ms since the process started> <thread> <phase> cpu=<ms of process CPU>`,
 * from the main thread and from worker threads alike (the time base is the wall clock, so lines from
 * different threads compare). Without the variable a mark costs one property read.
 */
import { readFileSync } from 'node:fs';

const enabled = process.env.TRAWL_STARTUP_TRACE === '1';
let processStartEpochMs: number | undefined;

/** Epoch ms at which the process started (/proc, 10 ms resolution); the first mark's time elsewhere. */
function processStart(): number {
  if (processStartEpochMs !== undefined) return processStartEpochMs;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptimeS = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    processStartEpochMs = Date.now() - uptimeS * 1000 + (startTicks / 100) * 1000;
  } catch {
    processStartEpochMs = Date.now();
  }
  return processStartEpochMs;
}

/**
 * Records that start-up reached `phase` (only with TRAWL_STARTUP_TRACE=1).
 * @param phase short name, e.g. 'db:open'
 * @param thread which thread marks ('main' unless given)
 */
export function startupMark(phase: string, thread = 'main'): void {
  if (!enabled) return;
  const now = performance.timeOrigin + performance.now();
  const cpu = process.cpuUsage();
  process.stderr.write(`startup ${(now - processStart()).toFixed(0).padStart(6)} ${thread.padEnd(6)} ${phase} cpu=${Math.round((cpu.user + cpu.system) / 1000)}\n`);
}
