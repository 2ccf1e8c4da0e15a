/**
 * Resolves scrape options: user options in (already shape-checked by the HTTP model), `ScrapeOptions`
 * out, with the defaults of interface.md "Scrape options", aliases of compat.md §1.2 and the
 * cross-field rules of compat.md §2.2 that a schema cannot express. Shared by scrape, batch scrape,
 * crawl and search `scrapeOptions`, so the same request means the same thing everywhere.
 */
import { Value } from '@sinclair/typebox/value';
import { TrawlError } from '../errors.ts';
import { ALL_FORMAT_SURFACES, type FormatSurface } from '../plugin.ts';
import { defaultFormats, defaultTimeout, formatsCacheable, type FormatPlugins } from '../scrape/formats.ts';
import type { FormatSpec, ScrapeOptions } from '../scrape/options.ts';
import { validateSelectors } from '../html/selectors.ts';
import { effectiveThreatPolicy, validateThreatPolicy } from '../threat/policy.ts';

/** Defaults of interface.md "Scrape options" (timeout and maxAge in ms). */
export const SCRAPE_DEFAULTS = {
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

/** Where each surface is named in messages. */
const SURFACE_NAMES: Record<FormatSurface, string> = {
  scrape: 'scrape', batch: 'batch scrape', crawl: 'crawl scrapeOptions', search: 'search scrapeOptions', parse: '/v2/parse', v1: 'v1 requests',
};

/**
 * Normalizes `formats` to object form and checks each against its plugin's declarations: known name,
 * string form, options schema, `validate`, `allowedIn`, `withFormats` and `exclusive`.
 * @param surface where the request came in (a format's `allowedIn` may leave some out)
 * @throws TrawlError BAD_REQUEST naming the rejected format and the supported ones, or the invalid option.
 */
export function resolveFormats(raw: unknown, plugins: FormatPlugins, surface: FormatSurface = 'scrape'): FormatSpec[] {
  const list = raw === undefined ? defaultFormats(plugins) : raw;
  if (!Array.isArray(list)) throw bad('formats must be an array');
  const out: FormatSpec[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    if (typeof item !== 'string' && (typeof item !== 'object' || item === null || typeof (item as FormatSpec).type !== 'string')) {
      throw bad(`Each format must be a name or an object { "type": name, ...options }. Supported formats: ${supported(plugins)}.`);
    }
    const spec: FormatSpec = typeof item === 'string' ? { type: item } : { ...(item as FormatSpec) };
    const plugin = plugins.get(spec.type);
    if (!plugin) {
      throw bad(`Unknown format "${spec.type}". Supported formats: ${supported(plugins)}.`);
    }
    if (typeof item === 'string' && plugin.stringForm === false) {
      throw bad(`Format "${spec.type}" must be an object such as { "type": "${spec.type}", ... } with its options.`);
    }
    const { type: _type, ...opts } = spec;
    if (plugin.options) {
      const errors = [...Value.Errors(plugin.options, opts)];
      if (errors.length) {
        throw bad(`Invalid options for format "${spec.type}": ${errors[0].path || '/'} ${errors[0].message}`, errors.map((e) => ({ path: e.path, message: e.message })));
      }
    }
    plugin.validate?.(opts);
    if (!(plugin.allowedIn ?? ALL_FORMAT_SURFACES).includes(surface)) {
      throw bad(`Format "${spec.type}" is not available in ${SURFACE_NAMES[surface]}.`);
    }
    if (seen.has(spec.type)) throw bad(`Format "${spec.type}" is listed more than once.`);
    seen.add(spec.type);
    out.push(spec);
  }
  for (const f of out) {
    const missing = (plugins.get(f.type)?.withFormats ?? []).filter((name) => !seen.has(name));
    if (missing.length) throw bad(`Format "${f.type}" needs ${missing.map((m) => `"${m}"`).join(', ')} in formats as well; add ${missing.length > 1 ? 'them' : 'it'}.`);
  }
  const exclusive = out.find((f) => plugins.get(f.type)?.exclusive);
  if (exclusive && out.length > 1) {
    throw bad(`Format "${exclusive.type}" must be the only format of the request; remove ${out.filter((f) => f !== exclusive).map((f) => `"${f.type}"`).join(', ')}.`);
  }
  return out;
}

function supported(plugins: FormatPlugins): string {
  return [...plugins.keys()].join(', ');
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
 * @param surface  where the request came in (formats may be limited to some surfaces)
 * @throws TrawlError BAD_REQUEST with a message saying what to change
 */
export function resolveScrapeOptions(raw: Record<string, any>, plugins: FormatPlugins, surface: FormatSurface = 'scrape'): ScrapeOptions {
  const formats = resolveFormats(raw.formats, plugins, surface);
  validateSelectors(raw.includeTags, 'includeTags');
  validateSelectors(raw.excludeTags, 'excludeTags');
  const lockdown = raw.lockdown === true;
  // A format may raise the default (compat.md §2.2: JSON mode to at least 60 s); a given timeout stays.
  const timeout = raw.timeout ?? defaultTimeout(formats, plugins, SCRAPE_DEFAULTS.timeout);
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
  const proxy = raw.proxy === 'stealth' ? 'enhanced' : (raw.proxy ?? SCRAPE_DEFAULTS.proxy);
  // Sensitive options force storeInCache off (interface.md storeInCache; compat.md §4): their output
  // may hold what only this caller may see (a login through a profile, cookies in headers), so it is
  // neither cached nor indexed for search (issue 15 item 3).
  const sensitive = (actions?.length ?? 0) > 0 || (raw.headers && Object.keys(raw.headers).length > 0) || Boolean(raw.profile) || !formatsCacheable(formats, plugins);
  const zeroDataRetention = raw.zeroDataRetention === true;
  // interface.md onlyCleanContent: "Incompatible with zero data retention" (the cleaning pass sends the
  // page to a model).
  if (raw.onlyCleanContent === true && (zeroDataRetention || lockdown)) {
    throw bad(`onlyCleanContent cannot be combined with ${zeroDataRetention ? 'zeroDataRetention' : 'lockdown'}: the cleaning pass sends the page to a model. Remove one of them.`);
  }

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
