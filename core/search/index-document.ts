/**
 * Feeds the local search index and the paper index from scraped documents. The scrape worker calls
 * `indexScrapedDocument` after storing a document whose options allow it (visibility.ts `indexable`:
 * never for zero data retention, lockdown, or scrapes with headers, actions or a profile), under the
 * team that scraped it. Indexing never fails a scrape: errors are logged and swallowed.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Queryable } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { Document } from '../scrape/document.ts';
import { upsertPage, type IndexedPage } from './local-index.ts';
import { extractPaper, type PaperRecord } from './papers/extract.ts';
import { upsertPaper } from './papers/store.ts';
import { clip, markdownToText, parseDate } from './text.ts';
import { safeDecode } from './operators.ts';

/** An index row before it is given to a team. */
export type PageEntry = Omit<IndexedPage, 'teamId'>;

/** Characters of page text kept in the index (the tsvector and highlights read it). */
export const MAX_CONTENT_CHARS = 64 * 1024;

function first(v: unknown): string | undefined {
  const x = Array.isArray(v) ? v[0] : v;
  return typeof x === 'string' && x.trim() ? x.trim() : undefined;
}

/** An http(s) URL resolved against the page URL, or undefined. */
function absolute(value: string | undefined, base: URL): string | undefined {
  if (!value) return undefined;
  try {
    const u = new URL(value, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function filetypeOf(contentType: string, url: URL): string {
  const ct = contentType.toLowerCase();
  if (ct.includes('pdf')) return 'pdf';
  if (ct.includes('html') || ct.includes('xml')) return 'html';
  const ext = /\.([a-z0-9]{1,8})$/i.exec(url.pathname)?.[1]?.toLowerCase();
  if (ext) return ext;
  return ct.startsWith('text/') ? 'txt' : 'html';
}

/**
 * Characters of a document's markdown or HTML read for its index text: the head and the last 64 KB
 * (where a paper's references are). Converting all of a 48 MB page held the thread for a second
 * (issue 15 item 8), and the index keeps 64 KB of text anyway.
 */
const SOURCE_CHARS = 2 * 1024 * 1024;
const clipSource = (s: string) => (s.length > SOURCE_CHARS ? `${s.slice(0, SOURCE_CHARS - 65_536)}\n\n${s.slice(-65_536)}` : s);

/** The page text of a document: its markdown, else the text of its HTML (both clipped to SOURCE_CHARS). */
export function documentText(doc: Document): string {
  if (typeof doc.markdown === 'string') return markdownToText(clipSource(doc.markdown));
  const raw = typeof doc.html === 'string' ? doc.html : typeof doc.rawHtml === 'string' ? doc.rawHtml : undefined;
  const html = raw === undefined ? undefined : clipSource(raw);
  if (html) return DomUtils.textContent(parseDocument(html)).replace(/[ \t]+/g, ' ').replace(/\n\s*\n\s*/g, '\n\n').trim();
  return '';
}

/**
 * The URL a document's index row is keyed by (metadata `url`, else `sourceURL`, without its
 * fragment), or undefined when the document gets no row (an error status, not http(s)).
 */
export function indexUrlOf(m: Document['metadata']): URL | undefined {
  const status = Number(m.statusCode);
  if (!Number.isFinite(status) || status >= 400) return undefined;
  let url: URL;
  try {
    url = new URL(String(m.url ?? m.sourceURL));
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url;
}

/**
 * The index row of a document, or undefined for documents that should not be indexed (error
 * statuses, non-http URLs).
 */
export function pageFromDocument(doc: Document, text = documentText(doc), now = new Date()): PageEntry | undefined {
  const m = doc.metadata;
  const url = indexUrlOf(m);
  if (!url) return undefined;
  const firstHeading = typeof doc.markdown === 'string' ? /^#{1,2}\s+(.+)$/m.exec(doc.markdown)?.[1] : undefined;
  const title = first(m.title) ?? first(m.ogTitle) ?? first(m.citation_title) ?? firstHeading?.trim() ?? url.hostname + url.pathname;
  // The page's own title heading would only repeat the title in snippets.
  const body = text.startsWith(title) ? text.slice(title.length).trimStart() : text;
  const content = body.length > MAX_CONTENT_CHARS ? body.slice(0, MAX_CONTENT_CHARS) : body;
  const firstParagraph = content.split(/\n\n/).find((p) => p.length > 60 && p !== title);
  const description = first(m.description) ?? first(m.ogDescription) ?? first(m.citation_abstract) ?? (firstParagraph ? clip(firstParagraph, 300) : '');
  const published = [m.publishedTime, m.citation_publication_date, m.citation_online_date, m.citation_date, m.dcDateCreated, m.dcDate, m.dcTermsCreated, m.date]
    .map(parseDate)
    .find((d) => d && d.getTime() <= now.getTime() + 86_400_000);
  const ogType = first(m['og:type'])?.toLowerCase();
  const kind = first(m.citation_title) ? 'paper' : published && (ogType === 'article' || m.publishedTime !== undefined) ? 'news' : 'web';
  const rating = (first(m.rating) ?? '').toLowerCase();
  const num = (v: unknown) => {
    const n = Number(first(v));
    return Number.isInteger(n) && n > 0 && n < 100_000 ? n : undefined;
  };
  const language = first(m.language)?.toLowerCase().slice(0, 16);
  return {
    url: url.href,
    host: url.hostname.toLowerCase(),
    path: safeDecode(url.pathname).toLowerCase(),
    title: clip(title.replace(/\s+/g, ' '), 500),
    description: clip(description.replace(/\s+/g, ' '), 1000),
    content,
    kind,
    filetype: filetypeOf(String(m.contentType ?? ''), url),
    language,
    imageUrl: absolute(first(m.ogImage), url),
    imageWidth: num(m['og:image:width']),
    imageHeight: num(m['og:image:height']),
    adult: rating === 'adult' || rating === 'rta-5042-1996-1400-1577-rta' || rating === 'mature',
    publishedAt: published,
  };
}

/** What a document adds to the indexes: its page row (none for error pages) and its paper, if any. */
export function indexEntriesOf(doc: Document): { page?: PageEntry; paper?: PaperRecord } {
  const text = documentText(doc);
  const page = pageFromDocument(doc, text);
  return page ? { page, paper: extractPaper(doc, text) } : {};
}

/**
 * Indexes one scraped document now (page, and paper when it carries paper metadata); crawl pages go
 * through the batched feed instead (index-feed.ts).
 * @param db     database
 * @param doc    the Document as the pipeline produced it
 * @param teamId the team that scraped it: only its searches (and public teams' readers) find the page
 */
export async function indexScrapedDocument(db: Queryable, doc: Document, teamId: string, log: Logger): Promise<void> {
  try {
    const { page, paper } = indexEntriesOf(doc);
    if (!page) return;
    await upsertPage(db, { ...page, teamId });
    if (paper) await upsertPaper(db, paper);
  } catch (err) {
    log.warn({ err }, 'search indexing failed');
  }
}
