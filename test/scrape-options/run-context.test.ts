/**
 * Deadlines of a scrape (core/net/deadline.ts, runContext in core/pipeline/scrape.ts): a deadline
 * aborts on time or with its parent and can be stopped; a guarded step fails with SCRAPE_TIMEOUT or
 * SCRAPE_JOB_CANCELLED; and a finished step's result is not kept alive by the run's signal (this kept
 * every crawled page's document reachable for the whole scrape timeout).
 */
import { expect, test } from 'bun:test';
import { deadline } from '../../core/net/deadline.ts';
import { loadConfig } from '../../core/config.ts';
import { silentLogger } from '../../core/log.ts';
import { runContext, type ScrapeRequest } from '../../core/pipeline/scrape.ts';
import { options } from '../html/helpers.ts';

const config = loadConfig({ TRAWL_LOG_LEVEL: 'silent' });

function request(timeout: number): ScrapeRequest {
  return { scrapeId: 's', url: 'http://127.0.0.1:9/', sourceURL: 'http://127.0.0.1:9/', options: options({ timeout }) };
}

test('a deadline aborts on time with a TimeoutError, with its parent, and never once disposed of', async () => {
  const timed = deadline(20);
  await Bun.sleep(60);
  expect(timed.signal.aborted).toBe(true);
  expect((timed.signal.reason as Error).name).toBe('TimeoutError');

  const parent = new AbortController();
  const child = deadline(60_000, parent.signal);
  parent.abort(new Error('stop'));
  expect(child.signal.aborted).toBe(true);
  child.dispose();

  const stopped = deadline(20);
  stopped.dispose();
  stopped.dispose(); // twice is fine
  await Bun.sleep(60);
  expect(stopped.signal.aborted).toBe(false);
});

test('guard: SCRAPE_TIMEOUT at the deadline, SCRAPE_JOB_CANCELLED on cancel, the step itself otherwise', async () => {
  const slow = runContext(request(30), { config, log: silentLogger, blobs: {} as never });
  expect(await slow.guard(new Promise(() => {})).catch((e) => e.code)).toBe('SCRAPE_TIMEOUT');

  const cancel = new AbortController();
  const cancelled = runContext(request(60_000), { config, log: silentLogger, blobs: {} as never }, cancel.signal);
  const pending = cancelled.guard(new Promise(() => {})).catch((e) => e.code);
  cancel.abort();
  expect(await pending).toBe('SCRAPE_JOB_CANCELLED');
  cancelled.end();

  const run = runContext(request(60_000), { config, log: silentLogger, blobs: {} as never });
  expect(await run.guard(Promise.resolve(7))).toBe(7);
  expect(await run.guard(Promise.reject(new Error('boom'))).catch((e) => e.message)).toBe('boom');
  run.end();
  await Bun.sleep(20);
  expect(run.ctx.signal.aborted).toBe(false);
});

test("a finished step's result is not kept alive by the run's signal", async () => {
  const cancel = new AbortController(); // a long-lived parent, like a worker's shutdown signal
  const run = runContext(request(60_000), { config, log: silentLogger, blobs: {} as never }, cancel.signal);
  const refs: WeakRef<object>[] = [];
  async function step(): Promise<void> {
    const doc = { markdown: 'x'.repeat(100_000) };
    refs.push(new WeakRef(doc));
    await run.guard(Promise.resolve(doc));
  }
  for (let i = 0; i < 20; i++) await step();
  run.end();
  for (let i = 0; i < 5; i++) {
    await Bun.sleep(10);
    Bun.gc(true);
  }
  // The conservative stack scan may keep one or two alive; before, the listeners kept all 20.
  expect(refs.filter((r) => r.deref() !== undefined).length).toBeLessThan(5);
  expect(run.ctx.signal.aborted).toBe(false); // the signal itself is still alive and reachable
  expect(cancel.signal.aborted).toBe(false);
});
