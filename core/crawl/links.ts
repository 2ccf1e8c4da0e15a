/**
 * Link discovery in HTML: every `<a href>` and `<area href>`, resolved against `<base href>` (or the
 * page URL), with a streaming htmlparser2 pass (no DOM is built, so large pages stay cheap). Used by
 * the crawl on each scraped page and by map on the start page. Also returns the page's `<title>` and
 * meta description, which map reports for pages it fetched.
 */
import { Parser } from 'htmlparser2';
import { parseHttpUrl } from './url-key.ts';

export interface PageLinks {
  /** Absolute http(s) URLs in document order, duplicates removed (fragments kept as found). */
  links: string[];
  title?: string;
  description?: string;
}

/**
 * Extracts links.
 * @param html    the page HTML (raw or rendered)
 * @param pageUrl the final URL of the page (after redirects): relative links resolve against it
 */
export function extractLinks(html: string, pageUrl: string): PageLinks {
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
  parser.end(html);
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
    }
  }
  const t = title.replace(/\s+/g, ' ').trim();
  return { links, title: t || undefined, description };
}
