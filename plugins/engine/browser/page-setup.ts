/**
 * Prepares a leased page for one scrape: TLS policy (`skipTlsVerification`), user agent and device
 * (`mobile`), request headers, `location` (Accept-Language, navigator.languages, Intl locale, time zone),
 * dialogs and pop-ups dismissed, the context's guarding proxy configured (SSRF policy, proxy route,
 * byte cap: it carries every connection of the context, workers and WebSockets included, and is the
 * SSRF guard), `blockAds` as URL patterns Chromium applies itself (adblock.ts), and, only for a scrape
 * that needs it, request interception (a round trip to Trawl for every request the page makes): for
 * `threatProtection` on navigations, and to add the request's `headers` to requests for the target's
 * own site only (cookies and tokens never go to third parties); an intercepted request also gets an
 * early SSRF check (sharing the gate's DNS answers) and the ad check. What happened on the network
 * (the main document's response, a refused navigation, a tab crash) is recorded in the returned
 * state for the engine to report. The DevTools commands go through the page's own session.
 */
import type { Browser, CDPSession, HTTPRequest, HTTPResponse, Page, Protocol } from 'puppeteer-core';
import { getDomain } from 'tldts';
import type { EngineRequest } from '../../../core/plugin.ts';
import type { Logger } from '../../../core/log.ts';
import type { TargetGate } from '../../proxy/gate/target-gate.ts';
import { AD_BLOCK_URLS, COOKIE_BANNER_CSS, installCookieBannerStyle, isAdRequest } from './adblock.ts';
import { createHostGuard, type HostGuard, type HostVerdict, type Lookup } from '../../../core/net/host-guard.ts';
import { threatVerdict, type ThreatBlock } from '../../../core/threat/check.ts';
import { acceptLanguage, locationEmulation } from '../../../core/scrape/location.ts';
import { trackNetwork } from './wait.ts';

/** Desktop viewport, px. */
export const DESKTOP_VIEWPORT = { width: 1920, height: 1080, deviceScaleFactor: 1, isMobile: false, hasTouch: false };
/** Phone emulated for `mobile: true` (a Pixel 8 class Android phone). */
export const MOBILE_VIEWPORT = { width: 412, height: 915, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true };

const NETWORK_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp']);

/** Headers that are the browser's business, never forwarded from the request. */
const DROPPED_HEADERS = new Set([
  'host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer',
  'accept-encoding', 'proxy-authorization', 'proxy-connection',
]);

export interface PageState {
  /** Last response of a main-frame navigation (the document being shown). */
  mainResponse?: HTTPResponse;
  /** Set when the guard refused a main-frame navigation. */
  refusedNavigation?: { url: string; verdict: Exclude<HostVerdict, { ok: true }> };
  /** Set when threatProtection refused a main-frame navigation (core/threat). */
  refusedThreat?: ThreatBlock & { url: string };
  /** Requests refused by the SSRF guard (or for a local scheme). */
  refused: number;
  /** Requests blocked as ads, trackers or consent managers. */
  adsBlocked: number;
  /** The renderer of the tab crashed. */
  crashed: boolean;
  /** URL of the latest main-frame navigation request (a redirect's target included). */
  navigationUrl?: string;
  /** The context's guarding proxy (why it refused or could not reach a host). */
  gate: TargetGate;
  /** The page's own DevTools session. */
  cdp: CDPSession;
  /**
   * Resolves once the latest main-frame navigation request has finished or failed (its response
   * event, if any, came before), or after `capMs`. A denied download fails `page.goto` with
   * ERR_ABORTED, and that answer can arrive before the document's response event.
   */
  navigationEnded(capMs: number): Promise<void>;
}

export interface PrepareOptions {
  /** The lease's guarding proxy. */
  gate: TargetGate;
  /** Most bytes one connection may bring in (`ResolvedConfig.maxFetchBytes`). */
  maxBytes: number;
  /** Resolver for the SSRF guard (default: the policy's DNS servers, else the system resolver). */
  lookup?: Lookup;
  log?: Logger;
}

/** Chromium's version and default user agent, asked once per browser (they never change while it runs). */
const identities = new WeakMap<Browser, Promise<{ version: string; userAgent: string }>>();

function identity(browser: Browser): Promise<{ version: string; userAgent: string }> {
  let known = identities.get(browser);
  if (!known) {
    known = Promise.all([browser.version(), browser.userAgent()]).then(([version, userAgent]) => ({ version, userAgent }));
    known.catch(() => identities.delete(browser));
    identities.set(browser, known);
  }
  return known;
}

/**
 * Applies the request's options to a fresh page (before navigation). The settings are independent
 * DevTools commands, sent together rather than one round trip after another (each costs tens of ms
 * on a busy machine); the listeners are in place before any of them can let a request through.
 */
export async function preparePage(page: Page, request: EngineRequest, opts: PrepareOptions): Promise<PageState> {
  trackNetwork(page); // the smart wait counts network quiet from the page's first request
  // First the gate: until it knows the scrape's rules it refuses every connection.
  const resolver = opts.gate.configure({
    policy: request.targets,
    lookup: opts.lookup,
    upstream: request.proxy?.url,
    maxBytes: opts.maxBytes,
    log: opts.log,
  });
  const cdp = pageSession(page);
  const browser = await identity(page.browser());
  let navigation: { request: HTTPRequest; ended: boolean } | undefined;
  const navigationWaiters = new Set<() => void>();
  const state: PageState = {
    refused: 0,
    adsBlocked: 0,
    crashed: false,
    cdp,
    gate: opts.gate,
    navigationEnded: (capMs) =>
      new Promise<void>((resolve) => {
        if (!navigation || navigation.ended) return resolve();
        const done = () => {
          clearTimeout(timer);
          navigationWaiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, capMs));
        navigationWaiters.add(done);
      }),
  };
  const navigationEnd = (r: HTTPRequest) => {
    if (navigation?.request !== r) return;
    navigation.ended = true;
    for (const w of [...navigationWaiters]) w();
  };
  const options = request.options;
  const pending: Promise<unknown>[] = [];

  if (options.skipTlsVerification !== false) pending.push(cdp.send('Security.setIgnoreCertificateErrors', { ignore: true }));

  // User agent, device and language.
  const headers = normalizeHeaders(request.headers);
  const version = browser.version; // "Chrome/156.0.8078.79"
  const full = version.split('/')[1] ?? '0.0.0.0';
  const major = full.split('.')[0]!;
  const mobile = options.mobile === true;
  const customUserAgent = headers['user-agent'];
  delete headers['user-agent'];
  const userAgent =
    customUserAgent ??
    (mobile
      ? `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`
      : browser.userAgent.replace('HeadlessChrome/', 'Chrome/'));
  // Client hints (navigator.userAgentData, Sec-CH-UA*) matching our own user agent; none for a custom one.
  const metadata: Protocol.Emulation.UserAgentMetadata | undefined = customUserAgent
    ? undefined
    : {
        brands: [
          { brand: 'Chromium', version: major },
          { brand: 'Google Chrome', version: major },
          { brand: 'Not.A/Brand', version: '99' },
        ],
        fullVersion: full,
        platform: mobile ? 'Android' : 'Linux',
        platformVersion: mobile ? '14.0.0' : '',
        architecture: mobile ? '' : 'x86',
        model: mobile ? 'Pixel 8' : '',
        mobile,
      };
  const { timezone, languages } = locationEmulation(options.location);
  const userAgentSet = page.setUserAgent({ userAgent, userAgentMetadata: metadata });
  pending.push(userAgentSet, page.setViewport(mobile ? MOBILE_VIEWPORT : DESKTOP_VIEWPORT));
  if (languages) {
    // navigator.language(s) and the Accept-Language of every request; Chromium adds the q-values.
    // After the plain user agent is set, so this override (with the languages) is the one that stays.
    pending.push(
      userAgentSet.then(() => cdp.send('Network.setUserAgentOverride', { userAgent, acceptLanguage: languages.join(','), userAgentMetadata: metadata })),
      cdp.send('Emulation.setLocaleOverride', { locale: languages[0]!.replace('_', '-') }).catch(() => undefined),
    );
    headers['accept-language'] ??= acceptLanguage(languages);
  }
  if (timezone) pending.push(page.emulateTimezone(timezone).catch(() => undefined));
  // Accept-Language goes everywhere; the request's other headers (cookies, tokens) only to the target's
  // own site, never to third-party hosts the page loads from.
  const { 'accept-language': lang, ...siteHeaders } = headers;
  if (lang) pending.push(page.setExtraHTTPHeaders({ 'accept-language': lang }));
  const targetSite = siteOf(request.url);
  const hasSiteHeaders = Object.keys(siteHeaders).length > 0;

  // Page behaviour: no dialogs blocking scripts, no pop-up windows, no service workers.
  page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()).catch(() => undefined));
  page.on('popup', (p) => void p?.close().catch(() => undefined));
  page.on('error', () => {
    state.crashed = true;
  });
  page.on('response', (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) state.mainResponse = r;
  });
  page.on('request', (r) => {
    if (!r.isNavigationRequest() || r.frame() !== page.mainFrame()) return;
    state.navigationUrl = r.url();
    navigation = { request: r, ended: false };
  });
  page.on('requestfinished', navigationEnd);
  page.on('requestfailed', navigationEnd);
  pending.push(page.setBypassServiceWorker(true));

  // The proxy route and its credentials are the gate's business: Chromium only ever sees the gate.

  // Ads: Chromium matches the patterns itself (subresources only; a navigation is never an ad here).
  const blockAds = options.blockAds !== false;
  if (blockAds) {
    pending.push(
      cdp.send('Network.setBlockedURLs', { urls: AD_BLOCK_URLS }),
      page.evaluateOnNewDocument(installCookieBannerStyle, COOKIE_BANNER_CSS),
    );
    page.on('requestfailed', (r) => {
      if (r.failure()?.errorText === BLOCKED_BY_PATTERN) state.adsBlocked++;
    });
  }
  // Interception only for what needs a decision per request: the gate is the SSRF guard of every
  // connection, so without threatProtection or site headers no request waits for a round trip to us.
  if (hasSiteHeaders || options.threatProtection) {
    const guard = request.targets.allowAll ? undefined : createHostGuard(request.targets, resolver.addresses);
    page.on('request', (req) => void decide(req, guard).catch(() => undefined));
    pending.push(page.setRequestInterception(true));
  }
  await Promise.all(pending);

  async function decide(req: HTTPRequest, guard: HostGuard | undefined): Promise<void> {
    if (req.isInterceptResolutionHandled()) return;
    const url = req.url();
    const scheme = url.slice(0, Math.max(0, url.indexOf(':'))).toLowerCase();
    if (scheme === 'data' || scheme === 'blob' || scheme === 'about') return req.continue();
    const u = NETWORK_SCHEMES.has(scheme) ? safeUrl(url) : undefined;
    if (!u) {
      state.refused++; // file:, chrome: and other local schemes are never for a scrape
      return req.abort('accessdenied');
    }
    const mainNav = req.isNavigationRequest() && req.frame() === page.mainFrame();
    const threat = req.isNavigationRequest() ? threatVerdict(url, options.threatProtection) : undefined;
    if (threat) {
      state.refused++;
      // A renderer-started navigation (a clicked link) may not name its frame yet: top level unless it names a child frame.
      if (mainNav || !req.frame()?.parentFrame()) state.refusedThreat = { ...threat, url };
      return req.abort('blockedbyclient');
    }
    if (blockAds && !mainNav && isAdRequest(url)) {
      state.adsBlocked++;
      return req.abort('blockedbyclient');
    }
    if (guard) {
      const verdict = await guard.check(u.hostname);
      if (!verdict.ok) {
        state.refused++;
        if (mainNav) state.refusedNavigation = { url, verdict };
        return req.abort(verdict.kind === 'unresolved' ? 'namenotresolved' : 'blockedbyclient');
      }
    }
    if (hasSiteHeaders && siteOf(url) === targetSite) return req.continue({ headers: { ...req.headers(), ...siteHeaders } });
    return req.continue();
  }

  return state;
}

/** What puppeteer reports for a request `Network.setBlockedURLs` blocked. */
const BLOCKED_BY_PATTERN = 'inspector';

/**
 * The page's own DevTools session (puppeteer keeps it private; Crawlee's blockRequests uses it the
 * same way): commands on it need no second session attached to the page, and `Network.setBlockedURLs`
 * only acts on a session whose Network domain is enabled.
 * @throws Error when a puppeteer upgrade removed it (every browser test then fails at once)
 */
function pageSession(page: Page): CDPSession {
  const client = (page as unknown as { _client?: () => CDPSession })._client;
  if (typeof client === 'function') return client.call(page);
  throw new Error('[browser] puppeteer no longer exposes the page session (Page._client)');
}

/** Lower-cased header names, hop-by-hop and unsafe values dropped. */
function normalizeHeaders(input: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(input ?? {})) {
    const name = k.toLowerCase().trim();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name) || DROPPED_HEADERS.has(name)) continue;
    if (typeof v !== 'string' || /[\r\n\0]/.test(v)) continue;
    out[name] = v;
  }
  return out;
}

/** Registrable domain of a URL's host (private suffixes such as github.io count), or the host itself. */
function siteOf(url: string): string | undefined {
  const host = safeUrl(url)?.hostname.toLowerCase();
  if (!host) return undefined;
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

function safeUrl(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}
