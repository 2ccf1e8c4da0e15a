/**
 * The scheduler's clock: what "now" is when deciding which monitor checks are due. Production uses
 * the system clock; tests pass a manual clock, or (for separate processes) a scaled clock configured
 * with TRAWL_SCHEDULER_CLOCK (`<ISO start>@<speed>`), on which every process agrees because it is a
 * function of real time only: `start + (real now - start) * speed`. Leases always use the database's
 * real `now()`.
 */

import type { ResolvedConfig } from '../config.ts';

export interface Clock {
  /** Current time, ms since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock running `speed` times faster than real time from the real instant `startMs` (same value in
 * every process that is given the same start and speed).
 */
export function scaledClock(startMs: number, speed: number): Clock {
  return { now: () => startMs + (Date.now() - startMs) * speed };
}

/** A clock a test moves by hand. */
export interface ManualClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function manualClock(startMs: number): ManualClock {
  let t = startMs;
  return { now: () => t, set: (ms) => void (t = ms), advance: (ms) => void (t += ms) };
}

/** The clock the config asks for: TRAWL_SCHEDULER_CLOCK's scaled clock, else the system clock. */
export function clockFor(config: Pick<ResolvedConfig, 'scheduler'>): Clock {
  const c = config.scheduler.clock;
  return c ? scaledClock(c.startMs, c.speed) : systemClock;
}
