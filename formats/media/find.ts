/**
 * The media of a page for the audio and video formats: URLs of `<audio>` / `<video>` elements (their
 * `src` and their `<source>` children) and of the `og:audio` / `og:video` meta tags (with their `:url`
 * and `:secure_url` forms), absolute, http(s) only, once each, in document order.
 */
import { elements, parseHtml } from '../../core/html/dom.ts';
import { baseUrlOf, resolveUrl } from '../../core/html/urls.ts';

export type MediaKind = 'audio' | 'video';

/**
 * Media URLs of a page by element kind.
 * @param html raw page HTML
 * @param pageUrl final URL of the page
 */
export function findMedia(html: string, pageUrl: string): Record<MediaKind, string[]> {
  const out: Record<MediaKind, Set<string>> = { audio: new Set(), video: new Set() };
  if (!html) return { audio: [], video: [] };
  const doc = parseHtml(html);
  const base = baseUrlOf(doc, pageUrl);
  const add = (kind: MediaKind, raw: string | undefined) => {
    const value = raw?.trim();
    if (!value) return;
    const abs = resolveUrl(value, base);
    if (abs && /^https?:/i.test(abs)) out[kind].add(abs);
  };
  for (const el of elements(doc)) {
    if (el.name === 'audio' || el.name === 'video') add(el.name, el.attribs.src);
    else if (el.name === 'source' && el.parent && 'name' in el.parent && (el.parent.name === 'audio' || el.parent.name === 'video')) {
      add(el.parent.name, el.attribs.src);
    } else if (el.name === 'meta') {
      const key = (el.attribs.property ?? el.attribs.name ?? '').toLowerCase();
      const m = /^og:(audio|video)(:url|:secure_url)?$/.exec(key);
      if (m) add(m[1] as MediaKind, el.attribs.content);
    }
  }
  return { audio: [...out.audio], video: [...out.video] };
}
