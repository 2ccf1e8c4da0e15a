/**
 * Prometheus metrics of this process (issue 24 scope 3), defined once on one prom-client registry:
 * HTTP requests, scrapes by engine, queue depth and job latency, crawl pages, browser pool, database
 * query latency, process memory and event-loop lag. Pipelines, drivers and pools call the small
 * `observe*`/`count*`/`track*` functions here (no Elysia import); core/http/routes/metrics.ts serves
 * `registry.metrics()` at `/metrics`. Counters are per process: with separate api and worker
 * processes, scrape each one.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { TrawlError } from '../errors.ts';
import type { QueueDriver, QueueJob, JobHandler } from '../queue/types.ts';

/** The registry `/metrics` serves (one per process). */
export const registry = new Registry();
// Process CPU, resident memory, heap, event-loop lag (nodejs_eventloop_lag_seconds) and GC. The lag
// histogram samples once a second: prom-client's default (every 10 ms) was the idle server's main
// CPU use, ~0.4% of a core with nothing to do (issue 22, bench/startup/first-start.ts).
collectDefaultMetrics({ register: registry, prefix: 'trawl_', eventLoopMonitoringPrecision: 1_000 });

/** Latency buckets, seconds: 5 ms .. 2 min (scrapes with a browser take seconds). */
const SECONDS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

const httpRequests = new Counter({ name: 'trawl_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
const httpDuration = new Histogram({ name: 'trawl_http_request_duration_seconds', help: 'HTTP request latency by method and route pattern', labelNames: ['method', 'route'], buckets: SECONDS, registers: [registry] });
const engineFetches = new Counter({ name: 'trawl_scrapes_total', help: 'Engine fetches of scrapes, by engine, outcome (success|error) and error code (empty on success)', labelNames: ['engine', 'outcome', 'code'], registers: [registry] });
const engineDuration = new Histogram({ name: 'trawl_scrape_duration_seconds', help: 'Engine fetch latency by engine and outcome', labelNames: ['engine', 'outcome'], buckets: SECONDS, registers: [registry] });
const jobDuration = new Histogram({ name: 'trawl_queue_job_duration_seconds', help: 'Queue job run time by queue and outcome', labelNames: ['queue', 'outcome'], buckets: SECONDS, registers: [registry] });
const crawlPages = new Counter({ name: 'trawl_crawl_pages_total', help: 'Crawl and batch scrape pages finished, by outcome (completed|failed)', labelNames: ['outcome'], registers: [registry] });
const browserLaunches = new Counter({ name: 'trawl_browser_launches_total', help: 'Chromium processes started by the browser pool', registers: [registry] });
const browserRestarts = new Counter({ name: 'trawl_browser_restarts_total', help: 'Chromium processes that disconnected unexpectedly (crashes) and were replaced', registers: [registry] });
const dbDuration = new Histogram({ name: 'trawl_db_query_duration_seconds', help: 'Latency of raw SQL queries (queue store, services; ORM calls excluded)', labelNames: ['outcome'], buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5], registers: [registry] });

const queues = new Set<{ driver: WeakRef<QueueDriver>; names: Set<string> }>();
new Gauge({
  name: 'trawl_queue_jobs',
  help: 'Queue depth: jobs by queue and state (waiting|active|delayed), read at scrape time',
  labelNames: ['queue', 'state'],
  registers: [registry],
  async collect() {
    this.reset();
    for (const q of queues) {
      const driver = q.driver.deref();
      if (!driver) {
        queues.delete(q);
        continue;
      }
      for (const name of q.names) {
        const c = await driver.counts(name).catch(() => undefined);
        if (!c) continue;
        for (const state of ['waiting', 'active', 'delayed'] as const) this.inc({ queue: name, state }, c[state]);
      }
    }
  },
});

const pools = new Set<WeakRef<{ pids(): number[] }>>();
new Gauge({
  name: 'trawl_browser_pool_browsers',
  help: 'Chromium processes alive in the browser pool(s) of this process',
  registers: [registry],
  collect() {
    let n = 0;
    for (const ref of pools) {
      const p = ref.deref();
      if (p) n += p.pids().length;
      else pools.delete(ref);
    }
    this.set(n);
  },
});

const seconds = (startedMs: number) => (performance.now() - startedMs) / 1000;
const codeOf = (e: unknown) => (e instanceof TrawlError ? e.code : 'UNKNOWN_ERROR');

/** Counts one answered HTTP request. @param route the route pattern (`/v2/crawl/:id`), never the raw path; @param ms latency in ms */
export function observeHttp(method: string, route: string, status: number, ms: number): void {
  httpRequests.inc({ method, route, status: String(status) });
  httpDuration.observe({ method, route }, ms / 1000);
}

/** Times one engine fetch: resolves or rejects as `work` does, counting engine, outcome and error code. */
export async function observeEngineFetch<T>(engine: string, work: Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    const out = await work;
    engineFetches.inc({ engine, outcome: 'success', code: '' });
    engineDuration.observe({ engine, outcome: 'success' }, seconds(t0));
    return out;
  } catch (e) {
    engineFetches.inc({ engine, outcome: 'error', code: codeOf(e) });
    engineDuration.observe({ engine, outcome: 'error' }, seconds(t0));
    throw e;
  }
}

/** Counts one finished crawl (or batch scrape) page. */
export function countCrawlPage(outcome: 'completed' | 'failed'): void {
  crawlPages.inc({ outcome });
}

/** Counts a browser launch or an unexpected disconnect (a crash) that forces a replacement. */
export function countBrowser(event: 'launch' | 'crash'): void {
  (event === 'launch' ? browserLaunches : browserRestarts).inc();
}

/** Adds a browser pool to the pool-size gauge (held weakly; its running browsers are its `pids()`). */
export function trackBrowserPool(pool: { pids(): number[] }): void {
  pools.add(new WeakRef(pool));
}

/** Wraps a raw query function so its latency is observed. */
export function timedQuery<F extends (...args: any[]) => Promise<any>>(query: F): F {
  return (async (...args: Parameters<F>) => {
    const t0 = performance.now();
    try {
      const out = await query(...args);
      dbDuration.observe({ outcome: 'ok' }, seconds(t0));
      return out;
    } catch (e) {
      dbDuration.observe({ outcome: 'error' }, seconds(t0));
      throw e;
    }
  }) as F;
}

/**
 * Instruments a queue driver in place: job run times by queue and outcome, and its queues (those it
 * adds to or processes) in the depth gauge. Returns the same driver.
 */
export function instrumentQueue(driver: QueueDriver): QueueDriver {
  const names = new Set<string>();
  queues.add({ driver: new WeakRef(driver), names });
  const add = driver.add.bind(driver);
  const process = driver.process.bind(driver);
  driver.add = (queue, name, data, opts) => (names.add(queue), add(queue, name, data, opts));
  driver.process = <T, R>(queue: string, handler: JobHandler<T, R>, opts: { concurrency: number }) => {
    names.add(queue);
    const timed: JobHandler<T, R> = async (job: QueueJob<T>, signal) => {
      const t0 = performance.now();
      try {
        const out = await handler(job, signal);
        jobDuration.observe({ queue, outcome: 'completed' }, seconds(t0));
        return out;
      } catch (e) {
        jobDuration.observe({ queue, outcome: 'failed' }, seconds(t0));
        throw e;
      }
    };
    return process(queue, timed, opts);
  };
  return driver;
}
