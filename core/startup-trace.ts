/**
 * Start-up phase marks for bench/startup: once enabled (`TRAWL_STARTUP_TRACE`, read by core/config.ts)
 * each `startupMark(phase)` writes one line to stderr,
 * `startup <ms since the process started> <thread> <phase> cpu=<ms of process CPU>`, from the main
 * thread and from worker threads alike (the time base is the wall clock, so lines from different
 * threads compare). A worker thread is enabled by its creator through `workerData.startupTrace`
 * (`startupTraceWorkerData()`), so its marks from module evaluation on are written too. Disabled, a mark
 * costs one variable read.
 */
import { readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';

let enabled = (workerData as { startupTrace?: unknown } | null)?.startupTrace === true;

/** Turns the marks on or off in this thread (the main thread: from `config.startupTrace`). */
export function enableStartupTrace(on: boolean): void {
  enabled = on;
}

/** `workerData` for a new worker thread, so it marks its start-up when this thread does. */
export function startupTraceWorkerData(): { startupTrace: boolean } {
  return { startupTrace: enabled };
}
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
 * Records that start-up reached `phase` (only when enabled).
 * @param phase short name, e.g. 'db:open'
 * @param thread which thread marks ('main' unless given)
 */
export function startupMark(phase: string, thread = 'main'): void {
  if (!enabled) return;
  const now = performance.timeOrigin + performance.now();
  const cpu = process.cpuUsage();
  process.stderr.write(`startup ${(now - processStart()).toFixed(0).padStart(6)} ${thread.padEnd(6)} ${phase} cpu=${Math.round((cpu.user + cpu.system) / 1000)}\n`);
}
