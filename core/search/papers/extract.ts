/**
 * Paper records from scraped documents: HTML pages carrying Highwire/Google Scholar `citation_*` meta
 * tags (arXiv, journals, PubMed), and PDFs that identify themselves (an arXiv id or DOI in the URL or
 * on the first page) and have an abstract. The result feeds the `papers` table (store.ts).
 */
import type { Document } from '../../scrape/document.ts';
import { clip, parseDate } from '../text.ts';

export interface PaperRecord {
  /** `arxiv:<id>`, `doi:<doi>`, `pmid:<id>`, `pmcid:<id>`, else `url:<url>`. */
  primaryId: string;
  ids: Record<string, string[]>;
  title: string;
  abstract: string;
  authors: string[];
  categories: string[];
  /** `YYYY-MM-DD`. */
  createdDate?: string;
  updatedDate?: string;
  url: string;
  pdfUrl?: string;
  /** Plain full text, at most MAX_BODY_CHARS. */
  body: string;
  /** Namespaced ids this paper cites. */
  refs: string[];
  /** Where the record came from: a page with citation meta tags (preferred for title/abstract) or a PDF. */
  source: 'citation' | 'pdf';
}

export const MAX_BODY_CHARS = 256 * 1024;

const DOI = /\b(10\.\d{4,9}\/[^\s"'<>]+[^\s"'<>.,;)\]])/;

function list(v: unknown): string[] {
  const arr = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return arr.filter((x): x is string => typeof x === 'string').map((s) => s.trim()).filter(Boolean);
}

function one(v: unknown): string | undefined {
  return list(v)[0];
}

/** Normalizes an arXiv id (no version, no prefix); undefined when it is not one. */
export function normalizeArxivId(value: string): string | undefined {
  const v = value.trim().replace(/^arxiv:/i, '').replace(/^https?:\/\/(www\.|export\.)?arxiv\.org\/(abs|pdf)\//i, '').replace(/\.pdf$/i, '');
  const m = /^(\d{4}\.\d{4,5})(v\d+)?$/.exec(v) ?? /^([a-z-]+(?:\.[A-Z]{2})?\/\d{7})(v\d+)?$/.exec(v);
  return m ? m[1] : undefined;
}

/** Normalizes a DOI (lower case, no `doi:` or resolver prefix). */
export function normalizeDoi(value: string): string | undefined {
  const v = value.trim().replace(/^doi:\s*/i, '').replace(/^https?:\/\/(dx\.)?doi\.org\//i, '');
  return /^10\.\d{4,9}\/\S+$/.test(v) ? v.toLowerCase() : undefined;
}

function day(v: unknown): string | undefined {
  const s = one(v);
  if (!s) return undefined;
  if (/^\d{4}$/.test(s)) return `${s}-01-01`;
  const d = parseDate(s);
  return d ? d.toISOString().slice(0, 10) : undefined;
}

/** The abstract section of a paper's text: the paragraph(s) after an "Abstract" heading. */
export function abstractFromText(text: string): string | undefined {
  const m = /(?:^|\n)\s*(?:#+\s*)?abstract\b[\s.:—–-]*/i.exec(text.slice(0, 20_000));
  if (!m) return undefined;
  const rest = text.slice(m.index + m[0].length);
  const end = rest.search(/\n\s*(?:#+\s*)?(?:\d+\.?\s+)?(?:introduction|keywords|index terms|1\s+introduction)\b/i);
  const body = (end > 0 ? rest.slice(0, end) : rest.split(/\n\s*\n/).slice(0, 2).join('\n\n')).replace(/\s+/g, ' ').trim();
  return body.length >= 40 ? clip(body, 3000) : undefined;
}

/** Namespaced ids cited in reference strings and text (DOIs and arXiv ids). */
function referenceIds(sources: string[], own: Set<string>): string[] {
  const out = new Set<string>();
  for (const s of sources) {
    for (const m of s.matchAll(new RegExp(DOI.source, 'g'))) {
      const doi = normalizeDoi(m[1]);
      if (doi) out.add(`doi:${doi}`);
    }
    for (const m of s.matchAll(/arxiv[:\s/]*(?:abs\/)?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})/gi)) out.add(`arxiv:${m[1]}`);
  }
  for (const id of own) out.delete(id);
  return [...out].slice(0, 500);
}

/**
 * The paper a document describes, or undefined when it is not a paper page.
 * @param text plain text of the document (markdown converted)
 */
export function extractPaper(doc: Document, text: string): PaperRecord | undefined {
  const m = doc.metadata;
  const url = String(m.url ?? m.sourceURL ?? '');
  const isPdf = String(m.contentType ?? '').toLowerCase().includes('pdf');
  const citationTitle = one(m.citation_title);
  if (!citationTitle && !isPdf) return undefined;
  const head = text.slice(0, 5000);
  const ids: Record<string, string[]> = {};
  const add = (ns: string, v: string | undefined) => {
    if (v && !(ids[ns] ??= []).includes(v)) ids[ns].push(v);
  };
  add('arxiv', list(m.citation_arxiv_id).map(normalizeArxivId).find(Boolean) ?? normalizeArxivId(url.replace(/[?#].*$/, '')));
  for (const d of list(m.citation_doi)) add('doi', normalizeDoi(d));
  for (const p of list(m.citation_pmid)) add('pmid', /^\d+$/.test(p) ? p : undefined);
  for (const p of list(m.citation_pmcid)) add('pmcid', /^PMC\d+$/i.test(p) ? p.toUpperCase() : undefined);
  if (isPdf && !citationTitle) {
    add('arxiv', /arxiv:\s*([\d.]+|[a-z-]+\/\d{7})/i.exec(head)?.[1]?.replace(/v\d+$/, '') ?? undefined);
    if (!ids.arxiv) add('doi', normalizeDoi(DOI.exec(head)?.[1] ?? ''));
  }
  for (const k of Object.keys(ids)) if (ids[k].length === 0) delete ids[k];

  const abstract = one(m.citation_abstract) ?? abstractFromText(text) ?? (citationTitle ? one(m.description) ?? one(m.ogDescription) : undefined);
  if (isPdf && !citationTitle && (!abstract || Object.keys(ids).length === 0)) return undefined;
  const firstLine = text.split('\n').map((l) => l.replace(/^#+\s*/, '').trim()).find((l) => l.length > 10);
  const title = citationTitle ?? one(m.title) ?? firstLine;
  if (!title) return undefined;
  const primaryId = ids.arxiv ? `arxiv:${ids.arxiv[0]}` : ids.doi ? `doi:${ids.doi[0]}` : ids.pmid ? `pmid:${ids.pmid[0]}` : ids.pmcid ? `pmcid:${ids.pmcid[0]}` : `url:${url}`;
  const authors = list(m.citation_author).length
    ? list(m.citation_author)
    : (one(m.citation_authors) ?? one(m.author) ?? '').split(/;|,\s*(?:and\s+)?|\s+and\s+/).map((a) => a.trim()).filter(Boolean);
  const categories = [...list(m.citation_keywords), ...list(m.citation_arxiv_category)]
    .flatMap((k) => k.split(/[;,]/))
    .map((k) => k.trim())
    .filter((k) => k && k.length <= 64);
  const created = day(m.citation_publication_date) ?? day(m.citation_date) ?? day(m.citation_online_date) ?? day(m.creationDate);
  const updated = day(m.citation_online_date) ?? day(m.modDate);
  const own = new Set(Object.entries(ids).flatMap(([ns, vs]) => vs.map((v) => `${ns}:${v}`)));
  const refs = referenceIds([...list(m.citation_reference), ...(isPdf ? [text.slice(-60_000)] : [])], own);
  return {
    primaryId,
    ids,
    title: clip(title.replace(/\s+/g, ' '), 1000),
    abstract: abstract ?? '',
    authors: [...new Set(authors)].slice(0, 200),
    categories: [...new Set(categories)].slice(0, 50),
    createdDate: created,
    updatedDate: updated && updated !== created ? updated : undefined,
    url,
    pdfUrl: one(m.citation_pdf_url) ?? (isPdf ? url : undefined),
    body: text.length > MAX_BODY_CHARS ? text.slice(0, MAX_BODY_CHARS) : text,
    refs,
    source: citationTitle ? 'citation' : 'pdf',
  };
}
