/**
 * Proxy routes of one scrape (interface.md `proxy`, `location`; compat.md §3 `proxyUsed`; issue 3
 * scope 4). The proxy plugins (plugins/proxy/) are asked for a route per tier in registry order, first
 * answer wins; no answer means a direct connection. The plan:
 *
 * - `basic`: the basic route (a country proxy for `location.country` first).
 * - `enhanced`: the enhanced route (else the basic one), with the browser engine preferred: slower,
 *   more like a real visitor.
 * - `auto` (default): the basic route; when the answer looks blocked (403, 429, a challenge page) or
 *   the route failed (proxy error, connection failure), once more on the enhanced route with the
 *   browser preferred. Without an enhanced proxy only a blocked answer is retried, in the browser on
 *   the same route (a failing proxy is never bypassed by going direct). No extra credits either way.
 */
import type { ResolvedConfig } from '../config.ts';
import type { Registry } from '../registry.ts';
import type { EngineResponse, ProxyRoute } from '../plugin.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import { TrawlError } from '../errors.ts';

export interface FetchAttempt {
  /** Undefined: direct connection. */
  route?: ProxyRoute;
  /** Add the `js` feature to the engine choice (the browser), when an engine has it. */
  preferBrowser: boolean;
  /** When this attempt runs after the previous one: on a blocked answer only, or also on a failure. */
  after: 'block' | 'block-or-failure';
}

/** The attempts of a scrape, in order. */
export async function proxyAttempts(options: ScrapeOptions, registry: Registry, config: ResolvedConfig): Promise<FetchAttempt[]> {
  const plugins = await registry.all('proxy');
  const country = options.location?.country;
  const routeFor = (tier: 'basic' | 'enhanced') => {
    for (const p of plugins) {
      const r = p.route({ tier, country }, config);
      if (r) return r;
    }
    return undefined;
  };
  const basic = routeFor('basic');
  if (options.proxy === 'basic') return [{ route: basic, preferBrowser: false, after: 'block-or-failure' }];
  const enhanced = routeFor('enhanced');
  if (options.proxy === 'enhanced') return [{ route: enhanced ?? basic, preferBrowser: true, after: 'block-or-failure' }];
  const first: FetchAttempt = { route: basic, preferBrowser: false, after: 'block-or-failure' };
  return enhanced
    ? [first, { route: enhanced, preferBrowser: true, after: 'block-or-failure' }]
    : [first, { route: basic, preferBrowser: true, after: 'block' }];
}

/** Body markers of anti-bot challenge and block pages. */
const CHALLENGE_RE =
  /cf-chl-|challenge-platform|\/cdn-cgi\/challenge|captcha|verify (?:that )?you are (?:a )?human|are you a robot|access denied|attention required|just a moment\.\.\.|unusual traffic|request blocked|ddos-guard|px-captcha|perimeterx/i;

/**
 * One word of every CHALLENGE_RE marker, with no space or tag inside: a page whose raw text has none
 * of them cannot show a marker once its tags are gone, so most pages skip the tag stripping.
 */
const MARKER_WORD_RE = /cf-chl-|challenge|captcha|human|robot|denied|attention|moment|unusual|blocked|ddos-guard|perimeterx/i;

/**
 * Whether an answer looks like an anti-bot block rather than the page: 403 or 429, or a 503 or
 * short 200 page carrying challenge markers.
 */
export function looksBlocked(response: EngineResponse): boolean {
  const status = response.statusCode;
  if (status === 403 || status === 429) return true;
  const text = response.text ?? '';
  if (status === 503) return CHALLENGE_RE.test(text.slice(0, 50_000));
  if (status >= 200 && status < 300 && text.length > 0 && text.length < 20_000 && MARKER_WORD_RE.test(text)) {
    const visible = text.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    return visible.length < 2_000 && CHALLENGE_RE.test(visible);
  }
  return false;
}

/**
 * The proxy refused to carry the request (407: its credentials were rejected).
 * @returns the error to throw, or undefined when the answer is the target's
 */
export function proxyAnswerError(response: EngineResponse, route: ProxyRoute | undefined): TrawlError | undefined {
  if (!route || response.statusCode !== 407) return undefined;
  return new TrawlError('UPSTREAM_ERROR', `[proxy] the ${route.name} proxy refused Trawl's credentials (HTTP 407)`, {
    details: { proxy: route.name, status: 407 },
  });
}

/** Whether another route may do better than this answer: blocked, or a proxy gateway error (502/504). */
export function worthRetrying(response: EngineResponse, route: ProxyRoute | undefined): boolean {
  return looksBlocked(response) || (route !== undefined && (response.statusCode === 502 || response.statusCode === 504));
}

/** Errors after which another route can help: retryable connection and proxy failures (not timeouts, bad input, refused targets, crashed tabs). */
export function routeFailed(error: TrawlError): boolean {
  const codes = ['UPSTREAM_ERROR', 'SCRAPE_SITE_ERROR', 'SCRAPE_ALL_ENGINES_FAILED'];
  return error.retryable && codes.includes(error.code);
}
