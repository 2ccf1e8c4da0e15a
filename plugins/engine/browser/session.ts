/**
 * Live browser sessions for interact (compat.md §5; issue 3 scope 7): a pooled page held for as long
 * as the session lasts. Opening replays the scrape: the same page preparation as a scrape (headers,
 * mobile, location, blockAds, SSRF guard, proxy), the profile's state, navigation, smart wait,
 * `waitFor`, and the scrape's interaction actions (wait, click, write, press, scroll,
 * executeJavascript; screenshot, scrape and pdf produce nothing the session needs and are skipped).
 * Closing saves the profile when the session saves changes, then returns the page to the pool.
 */
import type { BrowserContext, Page } from 'puppeteer-core';
import { TrawlError } from '../../../core/errors.ts';
import { withDeadline } from '../../../core/net/deadline.ts';
import type { EngineRequest, PluginContext } from '../../../core/plugin.ts';
import type { Action } from '../../../core/scrape/actions.ts';
import { runActions } from './actions.ts';
import { navigationError } from './net-errors.ts';
import { preparePage, type PageState } from './page-setup.ts';
import type { ThreatBlock } from '../../../core/threat/check.ts';
import type { BrowserPool, Lease } from './pool.ts';
import { captureProfile, restoreProfile, trackOrigins } from './profile-state.ts';
import { validateActions } from './validate.ts';
import { SMART_WAIT_MAX_MS, smartWait } from './wait.ts';
import { sleep } from '../../../core/net/deadline.ts';

/** Actions replayed when a session opens. */
const REPLAYED = new Set<Action['type']>(['wait', 'click', 'write', 'press', 'scroll', 'executeJavascript']);

export interface BrowserSession {
  readonly page: Page;
  readonly context: BrowserContext;
  /** True once the tab or the whole browser crashed: the session cannot go on. */
  readonly broken: boolean;
  /**
   * The last main-frame navigation threatProtection refused (request.options.threatProtection, checked
   * on every navigation of the live page), cleared by reading it.
   */
  takeRefusedThreat(): (ThreatBlock & { url: string }) | undefined;
  /** Saves the profile (when it saves changes) and releases the page; idempotent. */
  close(): Promise<void>;
}

/**
 * Opens a session on `request.url` within `request.timeoutMs`.
 * @throws TrawlError as a scrape would (SCRAPE_TIMEOUT, SCRAPE_SITE_ERROR, UNSAFE_TARGET,
 *         SCRAPE_ACTION_ERROR, BACKEND_UNAVAILABLE ...)
 */
export async function openSession(pool: BrowserPool, request: EngineRequest, ctx: PluginContext): Promise<BrowserSession> {
  const actions = validateActions(request.options.actions).filter((a) => REPLAYED.has(a.type));
  const deadline = Date.now() + Math.min(request.timeoutMs, ctx.deadline - Date.now());
  const remaining = () => deadline - Date.now();
  // Used while the session opens only; stopped then, so nothing stays reachable from its timer.
  return withDeadline(Math.max(1, remaining()), ctx.signal, (signal) => open(pool, request, ctx, actions, remaining, signal));
}

async function open(
  pool: BrowserPool,
  request: EngineRequest,
  ctx: PluginContext,
  actions: Action[],
  remaining: () => number,
  signal: AbortSignal,
): Promise<BrowserSession> {
  const lease: Lease = await pool.acquire({ signal });
  let state: PageState | undefined;
  try {
    const { page } = lease;
    state = await preparePage(page, request, {
      gate: lease.gate,
      maxBytes: ctx.config.maxFetchBytes,
      log: ctx.log.child({ plugin: 'browser', component: 'gate' }),
    });
    const profile = request.profile;
    if (profile?.state) await restoreProfile(lease.context, profile.state);
    const origins = trackOrigins(page, profile?.state?.origins.map((o) => o.origin));
    page.setDefaultTimeout(Math.max(1, remaining()));
    try {
      await page.goto(request.url, { waitUntil: 'domcontentloaded', timeout: Math.max(1, remaining()) });
    } catch (e) {
      throw navigationError(e, request, state, lease.crashed);
    }
    if (state.refusedNavigation) throw navigationError(new Error('net::ERR_BLOCKED_BY_CLIENT'), request, state, false);
    lease.warmNext();
    await smartWait(page, Math.min(SMART_WAIT_MAX_MS, Math.floor((remaining() - 2_000) / 2)));
    if (request.options.waitFor > 0) await sleep(Math.min(request.options.waitFor, Math.max(0, remaining() - 1_000)), signal);
    if (actions.length) await runActions(actions, { page, blobs: ctx.blobs, signal, remaining });
    page.setDefaultTimeout(30_000);
    const s = state;
    let closed = false;
    return {
      page,
      context: lease.context,
      get broken() {
        return lease.crashed || s.crashed || page.isClosed();
      },
      takeRefusedThreat() {
        const refused = s.refusedThreat;
        s.refusedThreat = undefined;
        return refused;
      },
      async close() {
        if (closed) return;
        closed = true;
        try {
          if (profile?.save && !lease.crashed && !s.crashed) {
            await captureProfile(lease.context, origins)
              .then((saved) => profile.save!(saved))
              .catch((err) => ctx.log.warn({ err, profile: profile.name }, 'could not save the profile'));
          }
        } finally {
          await lease.release();
        }
      },
    };
  } catch (e) {
    await lease.release();
    if (signal.aborted && !(e instanceof TrawlError)) {
      throw new TrawlError('SCRAPE_TIMEOUT', `[browser] the interact session could not replay ${request.url} in ${request.timeoutMs} ms`);
    }
    throw TrawlError.wrap(e, 'SCRAPE_SITE_ERROR');
  }
}
