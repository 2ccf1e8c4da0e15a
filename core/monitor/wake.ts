/**
 * Wakes the embedded-mode scheduler (core/scheduler.ts) when a write may have moved the next due
 * monitor earlier: a monitor created, its schedule or status changed, a manual check started. With the
 * embedded database this process is the only writer, so the scheduler sleeps until its next due work
 * instead of polling, and these calls are what end the sleep early. A signal inside one process only;
 * with Postgres other processes write too, and the scheduler keeps polling there.
 */

type Listener = () => void;
const listeners = new Set<Listener>();

/** Tells every sleeping scheduler of this process to look for due work now. Never throws. */
export function wakeScheduler(): void {
  for (const l of listeners) {
    try {
      l();
    } catch {
      // a listener's failure must not fail the write that woke it
    }
  }
}

/** Calls `listener` on every `wakeScheduler()`; returns the function that stops it. */
export function onSchedulerWake(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
