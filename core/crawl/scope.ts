/**
 * Which discovered URLs a crawl follows (interface.md "Crawl request body"; compat.md §7.2): internal
 * means the start host ignoring `www.`, or with `allowSubdomains` any host of the same registrable
 * domain (public suffix list, tldts); without `crawlEntireDomain` the path must lie under the start
 * path; `allowExternalLinks` follows other hosts one hop, except social networks and external
 * homepages (recorded as EXTERNAL_LINK); files that are never documents (images, CSS, archives ...) are
 * skipped; `excludePaths` is checked before `includePaths`, on the pathname or, with
 * `regexOnFullURL`, on the full URL.
 */
import { getDomain } from 'tldts';
import type { PathPattern } from './patterns.ts';
import { bareHost } from './url-key.ts';

export interface ScopeRules {
  start: URL;
  crawlEntireDomain: boolean;
  allowSubdomains: boolean;
  allowExternalLinks: boolean;
  regexOnFullURL: boolean;
  include: PathPattern[];
  exclude: PathPattern[];
}

/** Why a URL is not followed. `external-homepage` is the one recorded as an error (EXTERNAL_LINK). */
export type Rejection = 'external' | 'external-homepage' | 'social' | 'outside-path' | 'file-type' | 'excluded' | 'not-included';

export type Verdict = { ok: true; external: boolean } | { ok: false; reason: Rejection };

/** Hosts never followed as external links (compat.md §7.2). */
const SOCIAL = ['facebook.com', 'twitter.com', 'x.com', 'linkedin.com', 'instagram.com', 'pinterest.com', 'github.com', 'calendly.com', 'discord.com', 'discord.gg'];

/** Extensions of files that are never documents (compat.md §7.2 "Skipped files"); PDF, DOCX and XML are followed. */
const SKIPPED_EXT = new Set(
  (
    'png jpg jpeg gif webp svg ico bmp tif tiff avif heic css js mjs map woff woff2 ttf otf eot ' +
    'mp3 wav ogg oga flac aac m4a mp4 m4v webm mov avi mkv wmv flv mpeg mpg zip tar gz tgz bz2 xz 7z rar ' +
    'exe msi dmg pkg deb rpm apk iso bin dll so jar pptx ppt xlsx xls'
  ).split(' '),
);

function isSocial(host: string): boolean {
  return SOCIAL.some((d) => host === d || host.endsWith(`.${d}`));
}

/** The file extension of the last path segment, lower case, or ''. */
export function extensionOf(pathname: string): string {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
}

/** The start path under which links are followed without `crawlEntireDomain` (index files count as their folder). */
export function basePathOf(start: URL): string {
  return start.pathname.replace(/\/index\.(?:html?|php)$/i, '/');
}

/** True when `pathname` is the base path or under it (segment boundary: `/docs` covers `/docs/x`, not `/docs2`). */
export function underPath(pathname: string, base: string): boolean {
  if (base === '/' || base === '') return true;
  const trimmed = base.endsWith('/') ? base.slice(0, -1) : base;
  const p = pathname.replace(/\/index\.(?:html?|php)$/i, '/');
  return p === trimmed || p === `${trimmed}/` || p.startsWith(`${trimmed}/`);
}

/** How `host` relates to the start host: same site, a subdomain of the same registrable domain, or external. */
export function hostRelation(host: string, start: URL, allowSubdomains: boolean): 'same' | 'subdomain' | 'external' {
  const a = bareHost(host);
  const b = bareHost(start.hostname);
  if (a === b) return 'same';
  if (allowSubdomains) {
    const d = getDomain(a);
    if (d && d === getDomain(b)) return 'subdomain';
  }
  return 'external';
}

/** Applies exclude then include patterns (compat.md §7.2 Path scope). */
export function patternVerdict(url: URL, rules: Pick<ScopeRules, 'include' | 'exclude' | 'regexOnFullURL'>): Rejection | undefined {
  const target = rules.regexOnFullURL ? url.href : url.pathname;
  if (rules.exclude.some((p) => p.test(target))) return 'excluded';
  if (rules.include.length > 0 && !rules.include.some((p) => p.test(target))) return 'not-included';
  return undefined;
}

/**
 * Judges one discovered URL (already absolute http(s), fragment-free).
 * @returns ok with whether the URL is external (its links are then not followed), or the rejection
 */
export function judgeUrl(url: URL, rules: ScopeRules): Verdict {
  if (SKIPPED_EXT.has(extensionOf(url.pathname))) return { ok: false, reason: 'file-type' };
  const relation = hostRelation(url.hostname, rules.start, rules.allowSubdomains);
  if (relation === 'external') {
    if (!rules.allowExternalLinks) return { ok: false, reason: 'external' };
    if (isSocial(bareHost(url.hostname))) return { ok: false, reason: 'social' };
    if ((url.pathname === '/' || url.pathname === '') && url.search === '') return { ok: false, reason: 'external-homepage' };
  } else if (!rules.crawlEntireDomain && !underPath(url.pathname, basePathOf(rules.start))) {
    return { ok: false, reason: 'outside-path' };
  }
  const pattern = patternVerdict(url, rules);
  if (pattern) return { ok: false, reason: pattern };
  return { ok: true, external: relation === 'external' };
}
