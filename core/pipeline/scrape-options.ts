/**
 * Resolves scrape options: user options in (already shape-checked by the HTTP model), `ScrapeOptions`
 * out, with the defaults of interface.md "Scrape options", aliases of compat.md §1.2 and the
 * cross-field rules of compat.md §2.2 that a schema cannot express. Shared by scrape, batch scrape,
 * crawl and search `scrapeOptions`, so the same request means the same thing everywhere.
 */
import { Value } from '@sinclair/typebox/value';
import { TrawlError } from '../errors.ts';
import type { FormatPlugin } from '../plugin.ts';
import type { FormatSpec, ScrapeOptions } from '../http/models/scrape.ts';
import { validateSelectors } from '../../parsers/html/selectors.ts';
import { effectiveThreatPolicy, validateThreatPolicy } from '../threat/policy.ts';

/** Defaults of interface.md "Scrape options" (timeout and maxAge in ms). */
export const SCRAPE_DEFAULTS = {
  formats: ['markdown'],
  onlyMainContent: true,
  removeBase64Images: true,
  blockAds: true,
  skipTlsVerification: true,
  storeInCache: true,
  timeout: 60_000,
  waitFor: 0,
  maxAge: 172_800_000,
  lockdownMaxAge: 2 * 365 * 24 * 3600 * 1000,
  proxy: 'auto',
} as const;

function bad(message: string, details?: unknown): TrawlError {
  return new TrawlError('BAD_REQUEST', message, { details });
}

/**
 * Normalizes `formats` to object form and checks each against its plugin.
 * @throws TrawlError BAD_REQUEST naming the unknown format or the invalid option.
 */
export function resolveFormats(raw: unknown, plugins: Map<string, FormatPlugin>): FormatSpec[] {
  const list = raw === undefined ? SCRAPE_DEFAULTS.formats : raw;
  if (!Array.isArray(list)) throw bad('formats must be an array');
  const out: FormatSpec[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    const spec: FormatSpec = typeof item === 'string' ? { type: item } : { ...(item as FormatSpec) };
    const plugin = plugins.get(spec.type);
    if (!plugin) {
      throw bad(`Unknown format "${spec.type}". Supported formats: ${[...plugins.keys()].join(', ')}.`);
    }
    if (typeof item === 'string' && plugin.stringForm === false) {
      throw bad(`Format "${spec.type}" must be an object such as { "type": "${spec.type}", ... } with its options.`);
    }
    if (plugin.options) {
      const { type: _type, ...opts } = spec;
      const errors = [...Value.Errors(plugin.options, opts)];
      if (errors.length) {
        throw bad(`Invalid options for format "${spec.type}": ${errors[0].path || '/'} ${errors[0].message}`, errors.map((e) => ({ path: e.path, message: e.message })));
      }
    }
    if (seen.has(spec.type)) throw bad(`Format "${spec.type}" is listed more than once.`);
    seen.add(spec.type);
    out.push(spec);
  }
  return out;
}

/** Normalizes `parsers` (interface.md): bare names become objects; `pageMarkdown` aliases `pages`. */
function resolveParsers(raw: unknown): ScrapeOptions['parsers'] {
  if (raw === undefined) return [{ type: 'pdf' }];
  return (raw as unknown[]).map((p) => {
    if (typeof p === 'string') return { type: p };
    const { pageMarkdown, ...rest } = p as Record<string, unknown>;
    const out = { ...rest } as ScrapeOptions['parsers'][number];
    if (pageMarkdown !== undefined && out.pages === undefined) out.pages = Boolean(pageMarkdown);
    return out;
  });
}

/**
 * Applies defaults and cross-field rules.
 * @param raw      request object (scrape body, batch body, or `scrapeOptions`)
 * @param plugins  registered format plugins by name
 * @throws TrawlError BAD_REQUEST with a message saying what to change
 */
export function resolveScrapeOptions(raw: Record<string, any>, plugins: Map<string, FormatPlugin>): ScrapeOptions {
  const formats = resolveFormats(raw.formats, plugins);
  validateSelectors(raw.includeTags, 'includeTags');
  validateSelectors(raw.excludeTags, 'excludeTags');
  const lockdown = raw.lockdown === true;
  const timeout = raw.timeout ?? SCRAPE_DEFAULTS.timeout;
  const waitFor = raw.waitFor ?? SCRAPE_DEFAULTS.waitFor;
  if (waitFor > timeout / 2) throw bad('waitFor must not exceed half of timeout');

  let location: ScrapeOptions['location'];
  if (raw.location) {
    const country = String(raw.location.country ?? 'US').toUpperCase();
    if (!/^[A-Z]{2}$/.test(country)) {
      throw bad(`location.country must be a two-letter ISO 3166-1 alpha-2 code such as "US" or "DE", got "${raw.location.country}"`);
    }
    location = { country, languages: raw.location.languages };
  }

  const actions = raw.actions as ScrapeOptions['actions'];
  if (actions) {
    let totalWait = 0;
    actions.forEach((a, i) => {
      if (a.type === 'wait') {
        const has = [a.milliseconds !== undefined, a.selector !== undefined].filter(Boolean).length;
        if (has !== 1) throw bad(`Action ${i} (wait) needs exactly one of "milliseconds" or "selector".`);
        totalWait += a.milliseconds ?? 0;
      }
    });
    if (totalWait > 60_000) throw bad(`The wait actions add up to ${totalWait} ms; at most 60000 ms of waiting is allowed.`);
  }
  const screenshotCount = formats.filter((f) => f.type === 'screenshot').length;
  if (screenshotCount > 1) throw bad('At most one screenshot format may be requested.');

  const proxy = raw.proxy === 'stealth' ? 'enhanced' : (raw.proxy ?? SCRAPE_DEFAULTS.proxy);
  // Sensitive options force storeInCache off (interface.md storeInCache; compat.md §4).
  const sensitive = (actions?.length ?? 0) > 0 || (raw.headers && Object.keys(raw.headers).length > 0);
  const zeroDataRetention = raw.zeroDataRetention === true;

  return {
    formats,
    actions: actions?.length ? actions : undefined,
    auditMetadata: raw.auditMetadata,
    blockAds: raw.blockAds ?? SCRAPE_DEFAULTS.blockAds,
    excludeTags: raw.excludeTags,
    headers: raw.headers,
    includeTags: raw.includeTags,
    location,
    lockdown,
    maxAge: raw.maxAge ?? (lockdown ? SCRAPE_DEFAULTS.lockdownMaxAge : SCRAPE_DEFAULTS.maxAge),
    minAge: raw.minAge,
    mobile: raw.mobile ?? false,
    onlyCleanContent: raw.onlyCleanContent ?? false,
    onlyMainContent: raw.onlyMainContent ?? SCRAPE_DEFAULTS.onlyMainContent,
    parsers: resolveParsers(raw.parsers),
    profile: raw.profile ? { name: raw.profile.name, saveChanges: raw.profile.saveChanges ?? true } : undefined,
    proxy,
    redactPII: raw.redactPII,
    removeBase64Images: raw.removeBase64Images ?? SCRAPE_DEFAULTS.removeBase64Images,
    skipTlsVerification: raw.skipTlsVerification ?? SCRAPE_DEFAULTS.skipTlsVerification,
    storeInCache: sensitive || zeroDataRetention || lockdown ? false : (raw.storeInCache ?? SCRAPE_DEFAULTS.storeInCache),
    // The request's own policy; routes that know the team merge the team policy in (core/threat/team.ts).
    threatProtection: effectiveThreatPolicy(undefined, validateThreatPolicy(raw.threatProtection)),
    timeout,
    waitFor,
    zeroDataRetention,
  };
}

/**
 * Normalizes a user-given URL: trims it and adds `http://` when it has no scheme (compat.md §4).
 * @throws TrawlError BAD_REQUEST when the result is not a valid http(s) URL.
 */
export function normalizeTargetUrl(input: string): string {
  const trimmed = input.trim();
  const withScheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(trimmed) && !/^[^:/]+:\d+/.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw bad(`Invalid URL "${input.slice(0, 200)}": expected an absolute http(s) URL such as https://example.org/page`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw bad(`Unsupported URL scheme "${url.protocol}" in "${input.slice(0, 200)}": only http and https URLs can be scraped`);
  }
  if (!url.hostname) throw bad(`Invalid URL "${input.slice(0, 200)}": it has no host`);
  return url.href;
}
