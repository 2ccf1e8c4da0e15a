/**
 * Search categories (interface.md "Search request body"; compat.md §11.1): each narrows web results
 * with query operators and labels the hits it matches. `research` (before the research switch date)
 * and `developer` narrow to fixed domain lists, `github` to github.com, `pdf` to `filetype:pdf`.
 */
import { urlOnDomains } from './operators.ts';

export type Category = 'research' | 'pdf' | 'developer' | 'github';

/** Academic sites the `research` category searches before the switch (about 14, as the reference does). */
export const RESEARCH_DOMAINS = [
  'arxiv.org', 'pubmed.ncbi.nlm.nih.gov', 'ncbi.nlm.nih.gov', 'nature.com', 'science.org', 'ieee.org', 'sciencedirect.com',
  'biorxiv.org', 'medrxiv.org', 'springer.com', 'wiley.com', 'acm.org', 'semanticscholar.org', 'plos.org',
] as const;

/** Developer documentation, code hosting and Q&A sites for the `developer` category. */
export const DEVELOPER_DOMAINS = [
  'github.com', 'gitlab.com', 'stackoverflow.com', 'stackexchange.com', 'developer.mozilla.org', 'readthedocs.io',
  'docs.rs', 'pkg.go.dev', 'npmjs.com', 'pypi.org', 'learn.microsoft.com', 'docs.python.org',
] as const;

const DOMAINS: Record<Exclude<Category, 'pdf'>, readonly string[]> = {
  research: RESEARCH_DOMAINS,
  developer: DEVELOPER_DOMAINS,
  github: ['github.com'],
};

/**
 * The operator group for the requested categories: one OR group of all their sites (and
 * `filetype:pdf`), so a hit from any requested category qualifies. Empty when no category narrows.
 */
export function categoryOperators(categories: readonly Category[]): string {
  const parts: string[] = [];
  for (const c of categories) {
    if (c === 'pdf') parts.push('filetype:pdf');
    else for (const d of DOMAINS[c]) if (!parts.includes(`site:${d}`)) parts.push(`site:${d}`);
  }
  if (parts.length === 0) return '';
  if (parts.length === 1) return parts[0];
  return `(${parts.join(' OR ')})`;
}

/** True when a URL most likely serves a PDF (`.pdf` path or an arXiv-style `/pdf/` path). */
export function looksLikePdf(url: string): boolean {
  try {
    const p = new URL(url).pathname.toLowerCase();
    return p.endsWith('.pdf') || /\/pdf\//.test(p);
  } catch {
    return false;
  }
}

/**
 * The `category` label of a hit: the first requested category it matches; `pdf` when only the
 * `pdf` category can explain it. Undefined when no category was requested.
 */
export function categoryOf(url: string, categories: readonly Category[]): Category | undefined {
  if (categories.length === 0) return undefined;
  if (categories.includes('pdf') && looksLikePdf(url)) return 'pdf';
  for (const c of categories) if (c !== 'pdf' && urlOnDomains(url, DOMAINS[c])) return c;
  return categories.includes('pdf') ? 'pdf' : undefined;
}
