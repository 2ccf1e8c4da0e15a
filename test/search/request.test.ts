/**
 * Search request handling without a server: query operators, `tbs`, categories, and the resolution
 * rules of POST /v2/search (defaults, 400s for bad queries, the research switch on both sides).
 */
import { describe, expect, test } from 'bun:test';
import { matchesFilters, parseQuery, hasSearchTerms } from '../../core/search/operators.ts';
import { parseTbs, timeBounds, coarsePeriod } from '../../core/search/tbs.ts';
import { categoryOf, categoryOperators } from '../../core/search/categories.ts';
import { MAX_QUERY_CHARS, resolveSearchRequest } from '../../core/search/request.ts';
import { TrawlError } from '../../core/errors.ts';
import { markdownToText, bestSnippet, relativeDate } from '../../core/search/text.ts';
import type { FormatPlugin } from '../../core/plugin.ts';

const formats = new Map<string, FormatPlugin>([
  ['markdown', { kind: 'format', name: 'markdown', default: true, produce: () => ({}) }],
  ['html', { kind: 'format', name: 'html', produce: () => ({}) }],
]);
const AFTER = { researchSwitchDate: '2026-11-16', now: new Date('2026-11-21T10:00:00Z') };
const BEFORE = { researchSwitchDate: '2026-11-16', now: new Date('2026-11-10T10:00:00Z') };
const resolve = (body: Record<string, unknown>, opts = AFTER) => resolveSearchRequest(body, formats, opts);

function badRequest(fn: () => unknown): TrawlError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TrawlError);
    expect((e as TrawlError).status).toBe(400);
    return e as TrawlError;
  }
  throw new Error('expected a 400');
}

describe('operators', () => {
  test('site groups, exclusions, filetype and image size are read out of the query', () => {
    const p = parseQuery('tide tables (site:coast.example OR site:sea.example/docs) -site:spam.example filetype:pdf larger:800x600');
    expect(p.text).toBe('tide tables');
    expect(p.groups).toEqual([
      [{ kind: 'site', host: 'coast.example', path: '' }, { kind: 'site', host: 'sea.example', path: '/docs' }],
      [{ kind: 'filetype', ext: 'pdf' }],
    ]);
    expect(p.exclude).toEqual([{ host: 'spam.example', path: '' }]);
    expect(p.imageSize).toEqual({ width: 800, height: 600, larger: true });
  });

  test('words, phrases, negations and OR stay in the text', () => {
    const p = parseQuery('"spring tides" -moon neap OR ebb site:a.example');
    expect(p.text).toBe('"spring tides" -moon neap OR ebb');
    expect(hasSearchTerms(p)).toBe(true);
    expect(hasSearchTerms(parseQuery('site:a.example -site:b.example filetype:pdf'))).toBe(false);
    expect(hasSearchTerms(parseQuery('-moon'))).toBe(false);
  });

  test('matchesFilters checks hosts, subdomains and paths', () => {
    const p = parseQuery('x (site:coast.example OR site:sea.example/docs) -site:bad.coast.example');
    expect(matchesFilters('https://www.coast.example/a', p)).toBe(true);
    expect(matchesFilters('https://news.coast.example/a', p)).toBe(true);
    expect(matchesFilters('https://bad.coast.example/a', p)).toBe(false);
    expect(matchesFilters('https://sea.example/docs/tides', p)).toBe(true);
    expect(matchesFilters('https://sea.example/blog', p)).toBe(false);
    expect(matchesFilters('https://notcoast.example/a', p)).toBe(false);
    expect(matchesFilters('not a url', p)).toBe(false);
  });
});

describe('tbs', () => {
  test('periods, sort by date and custom ranges', () => {
    expect(parseTbs('qdr:w')).toEqual({ sortByDate: false, qdr: { unit: 'w', n: 1 } });
    expect(parseTbs('sbd:1,qdr:h')).toEqual({ sortByDate: true, qdr: { unit: 'h', n: 1 } });
    const r = parseTbs('cdr:1,cd_min:1/2/2026,cd_max:1/31/2026')!;
    expect(r.from!.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(r.to!.toISOString()).toBe('2026-01-31T23:59:59.999Z');
    expect(timeBounds(parseTbs('qdr:d'), 1_000_000_000_000).from).toBe(1_000_000_000_000 - 86_400_000);
    expect(coarsePeriod(parseTbs('qdr:h'))).toBe('day');
    expect(coarsePeriod(parseTbs('qdr:d3'))).toBe('week');
    expect(parseTbs('')).toBeUndefined();
  });

  test('bad values are 400s naming the problem', () => {
    expect(badRequest(() => parseTbs('qdr:x')).message).toContain('qdr:x');
    expect(badRequest(() => parseTbs('cdr:1,cd_min:13/45/2026')).message).toContain('13/45/2026');
    expect(badRequest(() => parseTbs('cd_min:1/1/2026')).message).toContain('cdr:1');
    expect(badRequest(() => parseTbs('cdr:1,cd_min:2/1/2026,cd_max:1/1/2026')).message).toContain('after');
    expect(badRequest(() => parseTbs('li:1')).message).toContain('li:1');
  });
});

describe('categories', () => {
  test('operators and labels', () => {
    expect(categoryOperators(['github'])).toBe('site:github.com');
    expect(categoryOperators(['pdf'])).toBe('filetype:pdf');
    expect(categoryOperators(['github', 'pdf'])).toBe('(site:github.com OR filetype:pdf)');
    expect(categoryOperators(['research'])).toContain('site:arxiv.org');
    expect(categoryOf('https://github.com/a/b', ['github', 'pdf'])).toBe('github');
    expect(categoryOf('https://x.example/paper.pdf', ['github', 'pdf'])).toBe('pdf');
    expect(categoryOf('https://arxiv.org/abs/1', ['research'])).toBe('research');
    expect(categoryOf('https://arxiv.org/abs/1', [])).toBeUndefined();
  });
});

describe('resolveSearchRequest', () => {
  test('defaults: web source, limit 10, timeout 60000, highlights on, country US', () => {
    const r = resolve({ query: '  tide tables ' });
    expect(r.query).toBe('tide tables');
    expect(r.providerQuery).toBe('tide tables');
    expect(r.sources.map((s) => s.source)).toEqual(['web']);
    expect(r.webGroup).toBe(true);
    expect([r.limit, r.timeoutMs, r.highlights, r.country, r.scrape]).toEqual([10, 60_000, true, 'US', undefined]);
  });

  test('sources as strings or objects, alexandria ignored, per-source tbs for web only', () => {
    const r = resolve({ query: 'tides', sources: ['news', { type: 'web', tbs: 'qdr:d' }, 'alexandria', { type: 'images' }], tbs: 'qdr:y' });
    expect(r.sources.map((s) => s.source)).toEqual(['news', 'web', 'images']);
    expect(r.sources.find((s) => s.source === 'web')!.tbsText).toBe('qdr:d');
    expect(r.sources.find((s) => s.source === 'news')!.tbsText).toBeUndefined();
    expect(resolve({ query: 'tides', sources: ['alexandria'] }).sources.map((s) => s.source)).toEqual(['web']);
  });

  test('includeDomains / excludeDomains / categories become operators', () => {
    expect(resolve({ query: 'tides', includeDomains: ['coast.example', 'https://sea.example/docs/'] }).providerQuery).toBe(
      'tides (site:coast.example OR site:sea.example/docs)',
    );
    expect(resolve({ query: 'tides', excludeDomains: ['a.example', 'b.example'] }).providerQuery).toBe('tides -site:a.example -site:b.example');
    expect(resolve({ query: 'tides', categories: [{ type: 'github' }] }).providerQuery).toBe('tides site:github.com');
  });

  test('scrapeOptions: formats default to markdown; formats [] means no scraping; zdr forces zero data retention', () => {
    expect(resolve({ query: 't', scrapeOptions: {} }).scrape!.formats).toEqual([{ type: 'markdown' }]);
    expect(resolve({ query: 't', scrapeOptions: { formats: [] } }).scrape).toBeUndefined();
    const z = resolve({ query: 't', enterprise: ['zdr'], scrapeOptions: { formats: ['html'] } });
    expect(z.enterprise).toEqual(['zdr']);
    expect(z.scrape!.zeroDataRetention).toBe(true);
    expect(z.scrape!.storeInCache).toBe(false);
    expect(badRequest(() => resolve({ query: 't', scrapeOptions: { formats: ['nope'] } })).message).toContain('nope');
  });

  test('bad queries get clear 400s', () => {
    expect(badRequest(() => resolve({ query: '' })).message).toContain('must not be empty');
    expect(badRequest(() => resolve({ query: '   ' })).message).toContain('must not be empty');
    expect(badRequest(() => resolve({ query: 'x'.repeat(10 * 1024) })).message).toContain(`at most ${MAX_QUERY_CHARS}`);
    expect(badRequest(() => resolve({ query: 'site:coast.example' })).message).toContain('only operators');
    expect(badRequest(() => resolve({ query: 't', includeDomains: ['a.example'], excludeDomains: ['b.example'] })).message).toContain(
      'cannot be used in the same request',
    );
    expect(badRequest(() => resolve({ query: 't', categories: ['developer', 'pdf'] })).message).toContain('developer');
    expect(resolve({ query: 't', categories: ['developer'] }).categories).toEqual(['developer']);
    expect(badRequest(() => resolve({ query: 't', includeDomains: ['not a domain'] })).message).toContain('bare domains');
    expect(badRequest(() => resolve({ query: 't', tbs: 'qdr:q' })).status).toBe(400);
    expect(badRequest(() => resolve({ query: 't', country: 'USA' })).message).toContain('two-letter');
    expect(badRequest(() => resolve({ query: 't', lang: 'english please' })).message).toContain('language code');
  });

  test('research before the switch: narrows web to academic sites with a warning', () => {
    const r = resolve({ query: 'tidal energy', categories: ['research'] }, BEFORE);
    expect(r.researchPapers).toBe(false);
    expect(r.categories).toEqual(['research']);
    expect(r.providerQuery).toContain('site:arxiv.org');
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('2026-11-16');
    expect(r.sources.map((s) => s.source)).toEqual(['web']);
  });

  test('research after the switch: paper index, no web group unless asked', () => {
    const r = resolve({ query: 'tidal energy', categories: ['research'] }, AFTER);
    expect(r.researchPapers).toBe(true);
    expect(r.categories).toEqual([]);
    expect(r.sources).toEqual([]);
    expect(r.webGroup).toBe(false);
    expect(r.warnings).toEqual([]);
    const both = resolve({ query: 'tidal energy', categories: ['research', 'github'], sources: ['web'] }, AFTER);
    expect(both.webGroup).toBe(true);
    expect(both.providerQuery).toBe('tidal energy site:github.com');
  });
});

describe('text helpers', () => {
  test('markdown to text, best snippet, relative dates', () => {
    expect(markdownToText('# Tides\n\nThe **tide** [rises](https://x.example/a) twice.\n\n| a | b |\n|---|---|\n| 1 | 2 |')).toBe('Tides\n\nThe tide rises twice.\n\na b \n\n1 2');
    expect(bestSnippet(['About the harbour.', 'Tide tables for the coast.'], 'tide tables')).toBe('Tide tables for the coast.');
    expect(relativeDate(new Date(Date.now() - 2 * 3600_000))).toBe('2 hours ago');
  });
});
