/**
 * Prepares a leased page for one scrape: TLS policy (`skipTlsVerification`), user agent and device
 * (`mobile`), request headers, `location` (Accept-Language, navigator.languages, Intl locale, time zone),
 * dialogs and pop-ups dismissed, the context's guarding proxy configured (SSRF policy, proxy route,
 * byte cap: it carries every connection of the context, workers and WebSockets included), and request
 * interception doing three jobs on every request the page makes: an early SSRF check (sharing the
 * gate's DNS answers, so both judge the same addresses), `blockAds`, and adding the request's
 * `headers` to requests for the target's own site only (cookies and tokens never go to third parties). What happened on the
 * network (the main document's response, a refused navigation, a tab crash) is recorded in the returned
 * state for the engine to report.
 */
import type { Browser, CDPSession, HTTPRequest, HTTPResponse, Page, Protocol } from 'puppeteer-core';
import { getDomain } from 'tldts';
import type { EngineRequest } from '../../../core/plugin.ts';
import type { Logger } from '../../../core/log.ts';
import type { TargetGate } from '../../proxy/gate/target-gate.ts';
import { COOKIE_BANNER_CSS, installCookieBannerStyle, isAdRequest } from './adblock.ts';
import { createHostGuard, type HostVerdict, type Lookup } from '../../../core/net/host-guard.ts';
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
  cdp: CDPSession;
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
  const [cdp, browser] = await Promise.all([page.createCDPSession(), identity(page.browser())]);
  const state: PageState = { refused: 0, adsBlocked: 0, crashed: false, cdp, gate: opts.gate };
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
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) state.navigationUrl = r.url();
  });
  pending.push(page.setBypassServiceWorker(true));

  // The proxy route and its credentials are the gate's business: Chromium only ever sees the gate.

  // Interception: early SSRF check and ad blocking.
  const guard = request.targets.allowAll ? undefined : createHostGuard(request.targets, resolver.addresses);
  const blockAds = options.blockAds !== false;
  if (guard || blockAds || hasSiteHeaders || options.threatProtection) {
    page.on('request', (req) => void decide(req).catch(() => undefined));
    pending.push(page.setRequestInterception(true));
  }
  if (blockAds) pending.push(page.evaluateOnNewDocument(installCookieBannerStyle, COOKIE_BANNER_CSS));
  await Promise.all(pending);

  async function decide(req: HTTPRequest): Promise<void> {
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
