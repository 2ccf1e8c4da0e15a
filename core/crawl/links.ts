/**
 * Link discovery in HTML: every `<a href>` and `<area href>`, resolved against `<base href>` (or the
 * page URL), with a streaming htmlparser2 pass (no DOM is built, so large pages stay cheap). Used by
 * map on the start page: at most MAX_LINKS_PER_PAGE links, read in slices so the API process keeps
 * answering. Also returns the page's `<title>` and meta description, which map reports.
 */
import { Parser } from 'htmlparser2';
import { parseHttpUrl } from './url-key.ts';
import { MAX_LINKS_PER_PAGE } from '../config.ts';
import { runAll, runYielding, SLICE_CHARS } from './yielding.ts';

export interface PageLinks {
  /** Absolute http(s) URLs in document order, duplicates removed (fragments kept as found). */
  links: string[];
  title?: string;
  description?: string;
}

/**
 * Extracts links, at most `max` (the first ones; the rest of the page is not read once enough hrefs are
 * found).
 * @param html    the page HTML (raw or rendered)
 * @param pageUrl the final URL of the page (after redirects): relative links resolve against it
 * @param max     the most links returned (default MAX_LINKS_PER_PAGE, core/config.ts)
 */
export function extractLinks(html: string, pageUrl: string, max = MAX_LINKS_PER_PAGE): PageLinks {
  return runAll(scanLinks(html, pageUrl, max));
}

/** extractLinks, letting the event loop in every SLICE_CHARS of HTML (what map runs in the API process). */
export function extractLinksYielding(html: string, pageUrl: string, max = MAX_LINKS_PER_PAGE): Promise<PageLinks> {
  return runYielding(scanLinks(html, pageUrl, max));
}

/** Raw hrefs read before the scan stops: duplicates and dropped schemes are left out only later. */
const RAW_PER_LINK = 4;

function* scanLinks(html: string, pageUrl: string, max: number): Generator<void, PageLinks> {
  let base: string = pageUrl;
  let baseSeen = false;
  const hrefs: string[] = [];
  let inTitle = false;
  let title = '';
  let titleDone = false;
  let description: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if ((name === 'a' || name === 'area') && attrs.href !== undefined) hrefs.push(attrs.href);
        else if (name === 'base' && !baseSeen && attrs.href) {
          baseSeen = true;
          const resolved = parseHttpUrl(attrs.href.trim(), pageUrl);
          if (resolved) base = resolved.href;
        } else if (name === 'title' && !titleDone) inTitle = true;
        else if (name === 'meta' && description === undefined) {
          const key = (attrs.name ?? attrs.property ?? '').toLowerCase();
          if ((key === 'description' || key === 'og:description') && attrs.content) description = attrs.content.trim();
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  for (let at = 0; at < html.length && hrefs.length < max * RAW_PER_LINK; at += SLICE_CHARS) {
    parser.write(html.slice(at, at + SLICE_CHARS));
    yield;
  }
  parser.end();
  const seen = new Set<string>();
  const links: string[] = [];
  for (const raw of hrefs) {
    const href = raw.trim();
    if (!href || /^(?:javascript|mailto|tel|sms|data|about|blob):/i.test(href)) continue;
    const url = parseHttpUrl(href, base);
    if (!url) continue;
    if (!seen.has(url.href)) {
      seen.add(url.href);
      links.push(url.href);
      if (links.length >= max) break;
    }
  }
  const t = title.replace(/\s+/g, ' ').trim();
  return { links, title: t || undefined, description };
}
