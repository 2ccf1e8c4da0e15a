/**
 * Turns a failed browser navigation into a TrawlError with the code users and the pipeline act on
 * (compat.md §1.4 codes): a refused private target is UNSAFE_TARGET (403), DNS failures
 * SCRAPE_DNS_RESOLUTION_ERROR, certificate failures SCRAPE_SSL_ERROR, proxy failures UPSTREAM_ERROR (so
 * `proxy: auto` can try another route), timeouts SCRAPE_TIMEOUT and the rest SCRAPE_SITE_ERROR. When
 * the context's guarding proxy did not carry the navigation, its reason decides the code (Chromium
 * only sees a failed tunnel or a closed connection).
 */
import { TrawlError } from '../../../core/errors.ts';
import type { EngineRequest } from '../../../core/plugin.ts';
import type { PageState } from './page-setup.ts';

/**
 * @param error what `page.goto` threw (puppeteer messages look like `net::ERR_NAME_NOT_RESOLVED at <url>`)
 * @param state the page's network state (a refused navigation is recorded there)
 * @param browserCrashed whether the whole browser went away (the engine retries those)
 */
export function navigationError(error: unknown, request: EngineRequest, state: PageState, browserCrashed: boolean): TrawlError {
  if (error instanceof TrawlError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const net = /net::(ERR_[A-Z_0-9]+)/.exec(message)?.[1];
  const url = request.url;
  if (state.refusedThreat) {
    const t = state.refusedThreat;
    return new TrawlError(t.code, `[browser] ${t.message}`, { details: { rule: t.rule, url: t.url } });
  }
  if (state.refusedNavigation) {
    const { url: refused, verdict } = state.refusedNavigation;
    if (verdict.kind === 'unresolved') {
      return new TrawlError('SCRAPE_DNS_RESOLUTION_ERROR', `[browser] ${verdict.reason}`, { details: { url: refused } });
    }
    return new TrawlError(
      'UNSAFE_TARGET',
      `[browser] refused to load ${refused}: ${verdict.reason} and private targets are not allowed`,
      { details: { url: refused } },
    );
  }
  const gateFailure = state.gate.failure(hostOf(state.navigationUrl ?? url));
  if (gateFailure && !browserCrashed) {
    const { reason, kind } = gateFailure;
    if (kind === 'private') return new TrawlError('UNSAFE_TARGET', `[browser] refused to load ${state.navigationUrl ?? url}: ${reason} and private targets are not allowed`);
    if (kind === 'unresolved') return new TrawlError('SCRAPE_DNS_RESOLUTION_ERROR', `[browser] ${reason}`);
    if (kind === 'upstream') {
      return new TrawlError('UPSTREAM_ERROR', `[browser] the proxy ${request.proxy?.name ?? ''} failed for ${url}: ${reason}`.replace('  ', ' '), {
        details: { proxy: request.proxy?.name },
      });
    }
    return new TrawlError('SCRAPE_SITE_ERROR', `[browser] could not load ${url}: ${reason}`, { retryable: true });
  }
  if (browserCrashed) return new TrawlError('SCRAPE_SITE_ERROR', `[browser] the browser crashed while loading ${url}`, { retryable: true, cause: error });
  if (state.crashed || /Page crashed|Target crashed/i.test(message)) {
    return new TrawlError('SCRAPE_SITE_ERROR', `[browser] the page crashed the browser tab: ${url}`, { retryable: false, cause: error });
  }
  if ((error as Error)?.name === 'TimeoutError') {
    return new TrawlError('SCRAPE_TIMEOUT', `[browser] ${url} did not load in time`, { retryable: true, cause: error });
  }
  if (!net) return new TrawlError('SCRAPE_SITE_ERROR', `[browser] could not load ${url}: ${message.split('\n')[0]}`, { cause: error });
  if (/^ERR_NAME_NOT_RESOLVED|^ERR_NAME_RESOLUTION_FAILED/.test(net)) {
    return new TrawlError('SCRAPE_DNS_RESOLUTION_ERROR', `[browser] the host of ${url} could not be resolved`, { cause: error });
  }
  if (/^ERR_CERT_|^ERR_SSL_|^ERR_BAD_SSL/.test(net)) {
    return new TrawlError('SCRAPE_SSL_ERROR', `[browser] TLS error for ${url}: ${net} (set skipTlsVerification to true to ignore it)`, {
      cause: error,
    });
  }
  if (/^ERR_PROXY_|^ERR_TUNNEL_CONNECTION_FAILED|^ERR_SOCKS_/.test(net)) {
    return new TrawlError('UPSTREAM_ERROR', `[browser] the proxy ${request.proxy?.name ?? ''} failed for ${url}: ${net}`.replace('  ', ' '), {
      details: { proxy: request.proxy?.name },
      cause: error,
    });
  }
  if (net === 'ERR_ABORTED' && state.mainResponse) {
    const type = state.mainResponse.headers()['content-type'] ?? 'unknown';
    return new TrawlError('SCRAPE_UNSUPPORTED_FILE_ERROR', `[browser] ${url} is a download (${type}), not a page the browser can show`, {
      cause: error,
    });
  }
  if (net === 'ERR_TIMED_OUT') return new TrawlError('SCRAPE_TIMEOUT', `[browser] ${url} did not answer in time`, { cause: error });
  return new TrawlError('SCRAPE_SITE_ERROR', `[browser] could not load ${url}: ${net}`, { retryable: true, cause: error });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
