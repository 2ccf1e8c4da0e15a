/**
 * A tiny search engine for the provider fakes: a fixed corpus matched word by word, honouring the
 * `site:` / `-site:` operators real engines honour, so a test fails when a provider sends the wrong
 * query. Test-only code.
 */

export interface FakeDoc {
  title: string;
  url: string;
  description: string;
  /** ISO date (news, `page_age`). */
  date?: string;
  image?: { url: string; width: number; height: number };
}

/** The corpus every fake serves. */
export const CORPUS: FakeDoc[] = [
  { title: 'Tide tables of the North Sea', url: 'https://coast.example/tides', description: 'How the tide rises twice a day along the North Sea coast.', date: '2026-11-19T08:00:00Z', image: { url: 'https://coast.example/img/tide.jpg', width: 1200, height: 800 } },
  { title: 'Spring tides and neap tides', url: 'https://coast.example/spring-neap', description: 'Spring tides come at new and full moon; neap tides between them.', date: '2026-11-10T08:00:00Z', image: { url: 'https://coast.example/img/moon.png', width: 400, height: 300 } },
  { title: 'Tides explained for sailors', url: 'https://sailing.example/learn/tides', description: 'A sailor’s guide to tide tables, tidal streams and harbours.', date: '2025-06-01T08:00:00Z' },
  { title: 'Tidal energy research', url: 'https://arxiv.org/abs/2401.01234', description: 'We study tidal energy extraction in shallow seas.', date: '2024-01-03T00:00:00Z' },
  { title: 'Tide gauge source code', url: 'https://github.com/example/tide-gauge', description: 'Open source software for reading tide gauges.' },
  { title: 'Harbour opening hours', url: 'https://harbour.example/hours', description: 'When the harbour of Den Helder is open.' },
];

/** Parses `site:` and `-site:` out of a query; the rest are words. */
function parse(q: string): { words: string[]; sites: string[]; notSites: string[] } {
  const words: string[] = [];
  const sites: string[] = [];
  const notSites: string[] = [];
  for (const t of q.replace(/[()]/g, ' ').split(/\s+/).filter(Boolean)) {
    const m = /^(-?)site:(.+)$/i.exec(t);
    if (m) (m[1] ? notSites : sites).push(m[2].toLowerCase());
    else if (t !== 'OR' && !t.includes(':')) words.push(t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''));
  }
  return { words: words.filter(Boolean), sites, notSites };
}

const onSite = (url: string, site: string) => {
  const h = new URL(url).hostname;
  return h === site || h.endsWith(`.${site}`);
};

/** Documents matching every word (prefix match on a word stem) and the site operators. */
export function matchCorpus(q: string, corpus: FakeDoc[] = CORPUS): FakeDoc[] {
  const { words, sites, notSites } = parse(q);
  return corpus.filter((d) => {
    const text = `${d.title} ${d.description}`.toLowerCase();
    if (!words.every((w) => text.includes(w.slice(0, Math.max(3, w.length - 1))))) return false;
    if (sites.length && !sites.some((s) => onSite(d.url, s))) return false;
    return !notSites.some((s) => onSite(d.url, s));
  });
}

/** Behaviour switch shared by the fakes. */
export type FakeMode = 'ok' | 'unauthorized' | 'rate-limited' | 'server-error' | 'slow' | 'not-json';

/** Bolds query words the way engines mark snippets (`<strong>tide</strong>`). */
export function strong(text: string, q: string): string {
  let out = text;
  for (const w of parse(q).words) out = out.replace(new RegExp(`\\b(${w})`, 'gi'), '<strong>$1</strong>');
  return out;
}
