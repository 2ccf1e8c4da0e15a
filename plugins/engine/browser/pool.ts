/**
 * The browser pool (issue 3, scope 1): at most `size` Chromium processes, each serving up to
 * `pagesPerBrowser` jobs at once. A job gets a lease: a fresh incognito BrowserContext (cookies and
 * storage never leak between jobs) with one page, and the context's own guarding proxy
 * (plugins/proxy/gate): every connection of the context goes through it, and it refuses everything
 * until the job configures it with its SSRF policy, proxy route and byte cap. Releasing the lease
 * closes the context and its gate. Browsers are reused across jobs, retired after `maxJobsPerBrowser`
 * jobs (bounds memory growth) and closed after `idleCloseMs` without work. A browser that disconnects (crash, killed)
 * is removed and its process group killed; only the jobs that were on it see the failure, and the next
 * acquire launches a replacement. `close()` leaves no Chromium process behind.
 *
 * A lease may be held for as long as the caller wants: an interact session can keep one open.
 *
 * Each browser keeps one spare context and page (with its gate) open ahead of the next job, so a job
 * rarely waits for page creation: the first opens at launch, the next once the job that took it has
 * navigated (`Lease.warmNext`, during its smart wait) or, failing that, when a lease is released.
 * Acquiring prefers a browser whose spare is ready.
 */
import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { TrawlError } from '../../../core/errors.ts';
import type { Logger } from '../../../core/log.ts';
import { TargetGate } from '../../proxy/gate/target-gate.ts';
import { launchBrowser, removeStaleProfiles, type LaunchedBrowser } from './launch.ts';
import { countBrowser, trackBrowserPool } from '../../../core/metrics/index.ts';

export interface PoolOptions {
  chromiumPath: string;
  dataDir: string;
  /** Most browsers at once (`ResolvedConfig.browserPoolSize`). */
  size: number;
  /** Jobs one browser serves at once. Default 4. */
  pagesPerBrowser?: number;
  /** Jobs after which a browser is replaced. Default 200. */
  maxJobsPerBrowser?: number;
  /** A browser without jobs this long is closed, ms; 0 keeps it. Default 120000. */
  idleCloseMs?: number;
  /** Extra Chromium flags. */
  extraArgs?: string[];
  log: Logger;
}

export interface AcquireOptions {
  /** Aborts waiting for a free browser (and the launch wait). */
  signal?: AbortSignal;
}

/** A job's hold on a browser: its own context and page. */
export interface Lease {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** The context's guarding proxy; the job configures it before navigating. */
  readonly gate: TargetGate;
  readonly slotId: number;
  readonly pid: number | undefined;
  /** True once the browser under this lease disconnected unexpectedly. */
  readonly crashed: boolean;
  /** Aborted when that happens, so work on the page can stop at once. */
  readonly crashSignal: AbortSignal;
  /**
   * Says the job's page has navigated: the pool opens the next job's spare context and page on this
   * browser now, while this job waits for its page to settle, rather than when the lease is released.
   * Idempotent; without it the spare opens at release.
   */
  warmNext(): void;
  /** Closes the context (idempotent) and returns the browser to the pool. */
  release(): Promise<void>;
}

interface Spare {
  context: BrowserContext;
  page: Page;
  gate: TargetGate;
}

interface Slot {
  id: number;
  /** The launch; never rejects (an Error is returned instead). */
  launching: Promise<LaunchedBrowser | Error>;
  /** The browser once usable; rejects when the launch failed or the pool closed. */
  ready: Promise<Browser>;
  browser?: Browser;
  pid?: number;
  userDataDir?: string;
  state: 'launching' | 'ready' | 'retiring' | 'dead';
  /** Disconnected without being asked to close. */
  crashed?: boolean;
  /** Aborted on a crash (leases expose its signal). */
  crash: AbortController;
  active: number;
  /** Released leases whose context is still closing (they hold no job, but still hold memory). */
  closing: number;
  jobs: number;
  /** A context, page and gate opened ahead of the next job, so acquiring is instant. */
  spare?: Promise<Spare | undefined>;
  /** True once `spare` has settled (a job taking it does not wait). */
  spareReady?: boolean;
  idleTimer?: ReturnType<typeof setTimeout>;
}

export interface PoolStats {
  /**
   * `active`: leases held; `closing`: released leases whose context is still closing; `spare`: a
   * context and page are open and waiting for the next job.
   */
  browsers: { id: number; pid: number | undefined; state: Slot['state']; active: number; closing: number; jobs: number; spare: boolean }[];
  waiting: number;
  launched: number;
  crashed: number;
}

const CLOSE_TIMEOUT_MS = 5_000;

export class BrowserPool {
  private readonly slots = new Map<number, Slot>();
  private waiters: (() => void)[] = [];
  private nextId = 1;
  private closed = false;
  private launched = 0;
  private crashes = 0;
  private readonly cap: number;
  private readonly maxJobs: number;
  private readonly idleMs: number;

  constructor(private readonly opts: PoolOptions) {
    this.cap = Math.max(1, opts.pagesPerBrowser ?? 4);
    this.maxJobs = Math.max(1, opts.maxJobsPerBrowser ?? 200);
    this.idleMs = opts.idleCloseMs ?? 120_000;
    removeStaleProfiles(opts.dataDir);
    trackBrowserPool(this);
  }

  /** Jobs the pool runs at once (browsers × pages per browser). */
  get capacity(): number {
    return Math.max(1, this.opts.size) * this.cap;
  }

  /**
   * Waits for room, then opens a new incognito context and page on a browser.
   * @throws TrawlError BACKEND_UNAVAILABLE (503) when Chromium cannot start or the pool is closed;
   *         the signal's reason when aborted while waiting.
   */
  async acquire(opts: AcquireOptions = {}): Promise<Lease> {
    for (;;) {
      if (this.closed) throw new TrawlError('BACKEND_UNAVAILABLE', '[browser] the browser pool is closed');
      opts.signal?.throwIfAborted();
      const slot = this.pick() ?? (this.live() < Math.max(1, this.opts.size) ? this.launch() : undefined);
      if (!slot) {
        await this.waitTurn(opts.signal);
        continue;
      }
      slot.active++;
      slot.jobs++;
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      if (slot.jobs >= this.maxJobs && slot.state === 'ready') slot.state = 'retiring';
      let browser: Browser;
      try {
        browser = await abortable(slot.ready, opts.signal);
      } catch (e) {
        slot.active--;
        this.settle(slot);
        throw e;
      }
      try {
        let opened: Spare | undefined;
        if (slot.spare) {
          const spare = slot.spare;
          slot.spare = undefined;
          slot.spareReady = false;
          // The next spare opens once this job has navigated (lease.warmNext) or ended (settle), not now:
          // opening a context and page keeps the browser busy, and this job's own setup and navigation
          // would wait behind it. Its smart wait (mostly idle) is the time to open it.
          opened = await spare;
          if (opened?.page.isClosed()) {
            opened.gate.close();
            opened = undefined;
          }
        }
        opened ??= await openPage(browser);
        return this.lease(slot, browser, opened);
      } catch (e) {
        slot.active--;
        this.settle(slot);
        if ((slot.state as Slot['state']) === 'dead' || !browser.connected) continue; // crashed while opening: try another
        throw new TrawlError('BACKEND_UNAVAILABLE', `[browser] could not open a page: ${(e as Error).message}`, { cause: e });
      }
    }
  }

  /** Closes every browser and kills what remains of their processes. Later acquires fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    await Promise.all([...this.slots.values()].map((s) => this.shutdown(s)));
  }

  stats(): PoolStats {
    return {
      browsers: [...this.slots.values()].map((s) => ({
        id: s.id,
        pid: s.pid,
        state: s.state,
        active: s.active,
        closing: s.closing,
        jobs: s.jobs,
        spare: s.spareReady === true,
      })),
      waiting: this.waiters.length,
      launched: this.launched,
      crashed: this.crashes,
    };
  }

  /** Process ids of the running browsers. */
  pids(): number[] {
    return [...this.slots.values()].flatMap((s) => (s.pid && s.state !== 'dead' ? [s.pid] : []));
  }

  private live(): number {
    return [...this.slots.values()].filter((s) => s.state !== 'dead').length;
  }

  /**
   * The open browser that still has room (fewer than `cap` jobs, and fewer than `cap` contexts still
   * closing): one whose spare page is ready first, then the one with the fewest jobs.
   */
  private pick(): Slot | undefined {
    let best: Slot | undefined;
    const rank = (s: Slot) => (s.spareReady ? 0 : 1_000) + s.active;
    for (const s of this.slots.values()) {
      if ((s.state === 'ready' || s.state === 'launching') && s.active < this.cap && s.closing < this.cap && (!best || rank(s) < rank(best))) best = s;
    }
    return best;
  }

  private launch(): Slot {
    const id = this.nextId++;
    const launching = launchBrowser({
      chromiumPath: this.opts.chromiumPath,
      dataDir: this.opts.dataDir,
      slot: id,
      extraArgs: this.opts.extraArgs,
    }).then(
      (l) => l,
      (e: unknown) => e as Error,
    );
    const slot: Slot = {
      id,
      state: 'launching',
      active: 0,
      closing: 0,
      jobs: 0,
      launching,
      crash: new AbortController(),
      ready: undefined as unknown as Promise<Browser>,
    };
    slot.ready = launching.then((l) => {
      if (l instanceof Error) {
        slot.state = 'dead';
        this.slots.delete(id);
        this.wake();
        this.opts.log.error({ err: l, chromium: this.opts.chromiumPath }, 'browser launch failed');
        throw new TrawlError('BACKEND_UNAVAILABLE', `[browser] Chromium could not be started (${this.opts.chromiumPath}): ${l.message}`, {
          cause: l,
        });
      }
      this.launched++;
      countBrowser('launch');
      slot.browser = l.browser;
      slot.pid = l.pid;
      slot.userDataDir = l.userDataDir;
      // When the pool closed meanwhile, close() shuts this browser down (it awaits `launching`).
      if (this.closed || slot.state === 'dead') throw new TrawlError('BACKEND_UNAVAILABLE', '[browser] the browser pool is closed');
      slot.state = slot.jobs >= this.maxJobs ? 'retiring' : 'ready';
      l.browser.once('disconnected', () => this.onDisconnected(slot));
      this.opts.log.debug({ slot: id, pid: l.pid }, 'browser launched');
      this.refill(slot);
      return l.browser;
    });
    slot.ready.catch(() => {}); // observed by acquirers; never an unhandled rejection
    this.slots.set(id, slot);
    return slot;
  }

  private lease(slot: Slot, browser: Browser, { context, page, gate }: Spare): Lease {
    let released = false;
    const pool = this;
    return {
      browser,
      context,
      page,
      gate,
      slotId: slot.id,
      pid: slot.pid,
      get crashed() {
        return slot.crashed === true;
      },
      crashSignal: slot.crash.signal,
      warmNext() {
        if (!released) pool.refill(slot);
      },
      async release() {
        if (released) return;
        released = true;
        // The job's place is free at once: the next job does not wait for this context to close
        // (`closing` bounds how many may be closing at once).
        slot.active--;
        slot.closing++;
        pool.settle(slot);
        try {
          if (slot.state !== 'dead' && browser.connected) {
            const ok = await withTimeout(context.close().then(() => true, () => !browser.connected), CLOSE_TIMEOUT_MS);
            if (!ok && browser.connected) {
              pool.opts.log.warn({ slot: slot.id, pid: slot.pid }, 'browser context did not close; replacing the browser');
              pool.kill(slot);
            }
          }
        } finally {
          gate.close();
          slot.closing--;
          pool.settle(slot);
        }
      },
    };
  }

  /** Opens the next job's context and page in the background (one spare per browser). */
  private refill(slot: Slot): void {
    if (this.closed || slot.state !== 'ready' || slot.spare || !slot.browser) return;
    slot.spareReady = false;
    const spare = openPage(slot.browser).catch(() => undefined);
    slot.spare = spare;
    void spare.then(() => {
      if (slot.spare === spare) slot.spareReady = true;
    });
  }

  /** After a lease ends: close a retiring or idle browser, refill the spare page, let waiters retry. */
  private settle(slot: Slot): void {
    this.refill(slot);
    if (slot.active === 0 && slot.closing === 0 && slot.state === 'retiring') void this.shutdown(slot);
    else if (slot.active === 0 && slot.closing === 0 && slot.state === 'ready' && this.idleMs > 0) {
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = setTimeout(() => {
        if (slot.active === 0 && slot.state === 'ready') void this.shutdown(slot);
      }, this.idleMs);
      slot.idleTimer.unref?.();
    }
    this.wake();
  }

  private onDisconnected(slot: Slot): void {
    if (slot.state === 'dead') return;
    this.crashes++;
    countBrowser('crash');
    slot.crashed = true;
    slot.crash.abort(new TrawlError('SCRAPE_SITE_ERROR', '[browser] the browser crashed', { retryable: true }));
    this.opts.log.warn({ slot: slot.id, pid: slot.pid, active: slot.active }, 'browser disconnected; it will be replaced');
    this.kill(slot);
  }

  /** Marks a slot dead, kills its process group and removes its files. */
  private kill(slot: Slot): void {
    dropSpare(slot);
    slot.state = 'dead';
    this.slots.delete(slot.id);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    killGroup(slot.pid);
    if (slot.userDataDir) rmSync(slot.userDataDir, { recursive: true, force: true });
    this.wake();
  }

  /** Graceful close with a time limit, then the process group is killed in any case. */
  private async shutdown(slot: Slot): Promise<void> {
    if (slot.state === 'dead') return;
    dropSpare(slot);
    slot.state = 'dead';
    this.slots.delete(slot.id);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    const launched = await slot.launching;
    if (!(launched instanceof Error)) {
      const closed = await withTimeout(launched.browser.close().then(() => true, () => false), CLOSE_TIMEOUT_MS);
      if (!closed) this.opts.log.warn({ slot: slot.id, pid: launched.pid }, 'browser did not close in time; killed');
      killGroup(launched.pid);
      rmSync(launched.userDataDir, { recursive: true, force: true });
    }
    this.wake();
  }

  private waitTurn(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== done);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(done);
    });
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }
}

/**
 * A new incognito context (downloads denied) and its page, behind a new gate. `<-loopback>` removes
 * Chromium's implicit proxy bypass for localhost and 127.0.0.0/8: the gate carries those too.
 */
async function openPage(browser: Browser): Promise<Spare> {
  const gate = await TargetGate.start();
  let context: BrowserContext | undefined;
  try {
    context = await browser.createBrowserContext({
      proxyServer: gate.proxyServer,
      proxyBypassList: ['<-loopback>'],
      downloadBehavior: { policy: 'deny' },
    });
    return { context, page: await context.newPage(), gate };
  } catch (e) {
    await context?.close().catch(() => undefined);
    gate.close();
    throw e;
  }
}

/** Closes the gate of a slot's spare page (the browser under it is going away). */
function dropSpare(slot: Slot): void {
  void slot.spare?.then((s) => s?.gate.close());
  slot.spare = undefined;
  slot.spareReady = false;
}

/** SIGKILL to a whole process group (Chromium and its zygote, renderers, utilities). */
function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | false> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
}

function abortable<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
