/**
 * One browser scrape, start to finish: lease a page from the pool, prepare it (page-setup.ts), navigate,
 * smart-wait, wait `waitFor` on top, run the actions, remove cookie banners, take the formats' captures
 * (screenshots, page scripts: `EngineRequest.captures`) and read the document. The whole job runs under one time budget (`timeoutMs`, the job deadline and
 * its signal); when the budget ends the lease is released (its context closed, which stops the page)
 * and SCRAPE_TIMEOUT is thrown. A job whose browser crashed under it is retried once on a fresh browser;
 * a job whose tab crashed fails at once. A named profile (`request.profile`) is restored into the fresh
 * context before navigation and, when it saves changes, read back at the end (profile-state.ts).
 * A connection that brings in more than `maxFetchBytes` stops the job at once with
 * SCRAPE_CONTENT_TOO_LARGE (the lease's guarding proxy counts the bytes). A main document the browser
 * does not show as a page (a PDF, a download) comes back as its bytes (document.ts).
 */
import { TrawlError } from '../../../core/errors.ts';
import type { HTTPResponse } from 'puppeteer-core';
import type { EngineRequest, EngineResponse, PluginContext } from '../../../core/plugin.ts';
import { runActions } from './actions.ts';
import { COOKIE_BANNER_SELECTORS, removeBannersAndRead } from './adblock.ts';
import { contentTypeOf, documentBytes, HTML_TYPES, isDocumentDownload } from './document.ts';
import { takeCaptures } from './captures.ts';
import type { Lookup } from '../../../core/net/host-guard.ts';
import { navigationError } from './net-errors.ts';
import { preparePage, type PageState } from './page-setup.ts';
import { captureProfile, restoreProfile, trackOrigins } from './profile-state.ts';
import type { BrowserPool, Lease } from './pool.ts';
import { validateActions } from './validate.ts';
import { SMART_WAIT_MAX_MS, smartWait } from './wait.ts';
import { sleep } from '../../../core/net/deadline.ts';

export interface BrowserFetchOptions {
  /** Resolver for the SSRF guard (default: the system resolver). */
  lookup?: Lookup;
}

/**
 * Scrapes `request.url` in a pooled browser.
 * @returns EngineResponse with `engine: 'browser'`; `body`/`text` are the rendered HTML, or the raw
 *          bytes for a non-HTML document (a PDF opened directly); `captures` and `actions` when asked.
 * @throws TrawlError BAD_REQUEST (invalid actions), UNSAFE_TARGET (private target refused),
 *         SCRAPE_TIMEOUT, SCRAPE_ACTION_ERROR, SCRAPE_DNS_RESOLUTION_ERROR, SCRAPE_SSL_ERROR,
 *         SCRAPE_SITE_ERROR, BACKEND_UNAVAILABLE (no browser), SCRAPE_JOB_CANCELLED,
 *         SCRAPE_CONTENT_TOO_LARGE (413: a response past `maxFetchBytes`), UPSTREAM_ERROR (proxy route)
 */
export async function fetchWithBrowser(
  pool: BrowserPool,
  request: EngineRequest,
  ctx: PluginContext,
  opts: BrowserFetchOptions = {},
): Promise<EngineResponse> {
  const actions = validateActions(request.options.actions);
  if (!/^https?:\/\//i.test(request.url)) {
    throw new TrawlError('BAD_REQUEST', `[browser] only http and https URLs can be scraped, got ${request.url.slice(0, 100)}`);
  }
  const budget = Math.min(request.timeoutMs, ctx.deadline - Date.now());
  const job = new JobClock(ctx, request.timeoutMs, budget);
  try {
    for (let attempt = 0; ; attempt++) {
      let lease: Lease | undefined;
      try {
        const t0 = Date.now();
        lease = await pool.acquire({ signal: job.signal });
        job.mark('acquire', t0);
        const l = lease;
        const tab = tabCrashSignal(l, request.url);
        return await job.run(() => scrapeOnPage(l, request, actions, ctx, job, opts), AbortSignal.any([l.crashSignal, tab, l.gate.signal]));
      } catch (e) {
        if (job.signal.aborted) throw job.error();
        if (lease?.crashed && attempt === 0) {
          ctx.log.warn({ url: request.url }, 'browser crashed during the scrape; retrying on a new browser');
          continue;
        }
        throw TrawlError.wrap(e, 'SCRAPE_SITE_ERROR');
      } finally {
        // Closing the context stops whatever the page still does; the answer does not wait for it.
        void lease?.release();
      }
    }
  } finally {
    job.dispose();
  }
}

async function scrapeOnPage(
  lease: Lease,
  request: EngineRequest,
  actions: ReturnType<typeof validateActions>,
  ctx: PluginContext,
  job: JobClock,
  opts: BrowserFetchOptions,
): Promise<EngineResponse> {
  const { page } = lease;
  let t = Date.now();
  const state = await preparePage(page, request, {
    gate: lease.gate,
    maxBytes: ctx.config.maxFetchBytes,
    lookup: opts.lookup,
    log: ctx.log.child({ plugin: 'browser', component: 'gate' }),
  });
  const profile = request.profile;
  if (profile?.state) await restoreProfile(lease.context, profile.state);
  const origins = profile ? trackOrigins(page, profile.state?.origins.map((o) => o.origin)) : undefined;
  page.setDefaultTimeout(Math.max(1, job.remaining()));
  page.setDefaultNavigationTimeout(Math.max(1, job.remaining()));
  t = job.mark('prepare', t);

  let response: HTTPResponse | null | undefined;
  let download = false;
  try {
    response = await page.goto(request.url, { waitUntil: 'domcontentloaded', timeout: Math.max(1, job.remaining()) });
  } catch (e) {
    // A document the browser does not show (a PDF in the headless shell, any download) is read as bytes.
    if (/net::ERR_ABORTED/.test(String((e as Error)?.message))) await state.navigationEnded(Math.min(1_000, job.remaining()));
    if (!state.refusedNavigation && !lease.crashed && isDocumentDownload(e, state)) download = true;
    else throw navigationError(e, request, state, lease.crashed);
  }
  if (state.refusedNavigation) throw navigationError(new Error('net::ERR_BLOCKED_BY_CLIENT'), request, state, false);
  t = job.mark('navigate', t);
  lease.warmNext(); // the next job's page opens while this one settles
  if (download) return documentResponse(lease, request, state, ctx, job, t);

  await smartWait(page, Math.min(SMART_WAIT_MAX_MS, Math.floor((job.remaining() - 2_000) / 2)));
  t = job.mark('smartWait', t);
  const waitFor = request.options.waitFor ?? 0;
  if (waitFor > 0) await sleep(Math.min(waitFor, Math.max(0, job.remaining() - 1_000)), job.signal);

  const results =
    actions.length > 0
      ? await runActions(actions, { page, blobs: ctx.blobs, signal: job.signal, remaining: () => job.remaining() })
      : undefined;
  if (state.crashed) throw new TrawlError('SCRAPE_SITE_ERROR', `[browser] the page crashed the browser tab: ${request.url}`);
  t = job.mark('actions', t);

  const main = state.mainResponse ?? response ?? undefined;
  const contentType = contentTypeOf(main);
  const isHtml = !main || HTML_TYPES.has(contentType);
  const banners = request.options.blockAds !== false ? COOKIE_BANNER_SELECTORS : [];
  // Without captures the banner removal and the read are one evaluate (one DevTools round trip, the
  // `read` phase); captures (screenshots) come after the removal and before the read.
  let text: string | undefined;
  let captures: Record<string, unknown> | undefined;
  if (request.captures || !isHtml) {
    if (banners.length > 0) await page.evaluate(removeBannersAndRead, banners, false).catch(() => undefined);
    if (request.captures) captures = await takeCaptures(page, request.captures, ctx);
    t = job.mark('captures', t);
  } else {
    text = await page.evaluate(removeBannersAndRead, banners, true).catch(() => undefined);
  }

  const headers = main?.headers() ?? {};
  let body: Uint8Array;
  if (isHtml) {
    text ??= await page.content(); // (also when the one evaluate failed: a document replaced meanwhile)
    body = new TextEncoder().encode(text);
  } else {
    body = await documentBytes(page, state, main, false, ctx.config.maxFetchBytes);
  }
  if (profile?.save && origins) {
    // The scrape's answer does not depend on saving; a failed save is logged.
    await captureProfile(lease.context, origins)
      .then((saved) => profile.save!(saved))
      .catch((err) => ctx.log.warn({ err, profile: profile.name }, 'could not save the profile'));
  }
  job.mark('read', t);
  ctx.log.debug(
    { url: page.url(), status: main?.status(), adsBlocked: state.adsBlocked, refused: state.refused + lease.gate.refused, ms: job.phases },
    'browser scrape done',
  );
  return {
    url: page.url() || request.url,
    statusCode: main?.status() ?? 200,
    headers,
    contentType,
    body,
    text,
    captures,
    actions: results,
    engine: 'browser',
    proxyUsed: request.proxy?.tier,
  };
}

/**
 * Aborted as soon as the job's tab crashes (renderer out of memory, killed), so the job fails at once
 * with SCRAPE_SITE_ERROR instead of waiting for its timeout on a page that will never answer.
 */
function tabCrashSignal(lease: Lease, url: string): AbortSignal {
  const controller = new AbortController();
  lease.page.once('error', () =>
    controller.abort(new TrawlError('SCRAPE_SITE_ERROR', `[browser] the page crashed the browser tab: ${url}`, { retryable: false })),
  );
  return controller.signal;
}

/**
 * The answer for a main document the browser did not show (a download it denied: a PDF in the headless
 * shell, an office file): its bytes, status and headers; no wait, actions or captures (there is no
 * page to act on).
 */
async function documentResponse(lease: Lease, request: EngineRequest, state: PageState, ctx: PluginContext, job: JobClock, t: number): Promise<EngineResponse> {
  const main = state.mainResponse!;
  const body = await documentBytes(lease.page, state, main, true, ctx.config.maxFetchBytes);
  job.mark('read', t);
  ctx.log.debug({ url: main.url(), status: main.status(), refused: state.refused + lease.gate.refused, ms: job.phases }, 'browser scrape done');
  return {
    url: main.url() || request.url,
    statusCode: main.status(),
    headers: main.headers(),
    contentType: contentTypeOf(main),
    body,
    engine: 'browser',
    proxyUsed: request.proxy?.tier,
  };
}

/** The job's time budget and cancellation as one signal. */
class JobClock {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly end: number;
  private readonly onParentAbort = () => this.controller.abort(this.ctx.signal.reason);

  constructor(
    private readonly ctx: PluginContext,
    private readonly timeoutMs: number,
    budget: number,
  ) {
    this.end = Date.now() + Math.max(0, budget);
    this.timer = setTimeout(() => this.controller.abort(this.timeoutError()), Math.max(0, budget));
    if (ctx.signal.aborted) this.controller.abort(ctx.signal.reason);
    else ctx.signal.addEventListener('abort', this.onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  remaining(): number {
    return this.end - Date.now();
  }

  /** Time spent per phase of the scrape, ms (the debug log's `ms`: where a scrape's time went). */
  readonly phases: Record<string, number> = {};

  /** Adds the time since `since` to `phase`; returns now. */
  mark(phase: string, since: number): number {
    const now = Date.now();
    this.phases[phase] = (this.phases[phase] ?? 0) + now - since;
    return now;
  }

  /**
   * Runs `work`, rejecting with the job's error as soon as the budget ends or the job is cancelled,
   * and with the reason of `crash` as soon as the browser under it goes away.
   */
  run<T>(work: () => Promise<T>, crash?: AbortSignal): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) return Promise.reject(this.error());
    if (crash?.aborted) return Promise.reject(crash.reason);
    const p = work();
    p.catch(() => undefined); // a late rejection after abort is expected and ignored
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.error());
      const onCrash = () => reject(crash!.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      crash?.addEventListener('abort', onCrash, { once: true });
      p.then(resolve, reject).finally(() => {
        signal.removeEventListener('abort', onAbort);
        crash?.removeEventListener('abort', onCrash);
      });
    });
  }

  /** Why the job stopped: the parent's reason, or SCRAPE_TIMEOUT / SCRAPE_JOB_CANCELLED. */
  error(): TrawlError {
    const reason = this.signal.reason;
    if (reason instanceof TrawlError) return reason;
    if (this.ctx.signal.aborted) {
      return Date.now() >= this.ctx.deadline
        ? this.timeoutError()
        : new TrawlError('SCRAPE_JOB_CANCELLED', '[browser] the scrape was cancelled');
    }
    return this.timeoutError();
  }

  private timeoutError(): TrawlError {
    return new TrawlError('SCRAPE_TIMEOUT', `Scrape timed out after ${this.timeoutMs} ms`, { retryable: true });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.ctx.signal.removeEventListener('abort', this.onParentAbort);
  }
}
