/**
 * Pure crawl rules: URL normalization keys (compat.md §7.2 Normalization), scope verdicts (Internal,
 * Path scope, Skipped files, external links) and RE2 path patterns with the limits of interface.md.
 */
import { describe, expect, test } from 'bun:test';
import { urlKey, fetchUrlOf } from '../../core/crawl/url-key.ts';
import { judgeUrl, underPath, basePathOf, hostRelation, type ScopeRules } from '../../core/crawl/scope.ts';
import { compilePatterns, PATTERN_LIMITS } from '../../core/crawl/patterns.ts';
import { TrawlError } from '../../core/errors.ts';

const key = (u: string, o = {}) => urlKey(new URL(u), { ignoreQueryParameters: false, deduplicateSimilarURLs: true, ...o });

describe('urlKey', () => {
  test('spellings of one page share a key', () => {
    const spellings = [
      'http://site.example/docs',
      'https://site.example/docs/',
      'https://www.site.example/docs/index.html',
      'http://SITE.Example:80/docs/index.php#section',
      'https://site.example:443/docs/index.htm',
    ];
    const keys = new Set(spellings.map((s) => key(s)));
    expect([...keys]).toEqual(['//site.example/docs']);
  });

  test('different pages, ports, queries and route hashes keep distinct keys', () => {
    expect(key('http://site.example/a')).not.toBe(key('http://site.example/b'));
    expect(key('http://site.example:8080/a')).not.toBe(key('http://site.example/a'));
    expect(key('http://site.example/a?x=1')).not.toBe(key('http://site.example/a?x=2'));
    expect(key('http://site.example/#/app/one')).not.toBe(key('http://site.example/#/app/two'));
    expect(key('http://site.example/a%2fb')).toBe(key('http://site.example/a%2Fb'));
  });

  test('ignoreQueryParameters drops the query from key and fetched URL', () => {
    expect(key('http://site.example/a?x=1', { ignoreQueryParameters: true })).toBe(key('http://site.example/a?y=2', { ignoreQueryParameters: true }));
    expect(fetchUrlOf(new URL('http://site.example/a?x=1#frag'), { ignoreQueryParameters: true, deduplicateSimilarURLs: true })).toBe('http://site.example/a');
    expect(fetchUrlOf(new URL('http://site.example/a?x=1#frag'))).toBe('http://site.example/a?x=1');
  });

  test('without deduplicateSimilarURLs, scheme and www are significant', () => {
    const o = { deduplicateSimilarURLs: false };
    expect(key('http://site.example/a', o)).not.toBe(key('https://site.example/a', o));
    expect(key('http://www.site.example/a', o)).not.toBe(key('http://site.example/a', o));
    expect(key('http://site.example/a/', o)).toBe(key('http://site.example/a', o));
  });
});

function rules(start: string, over: Partial<ScopeRules> = {}): ScopeRules {
  return { start: new URL(start), crawlEntireDomain: false, allowSubdomains: false, allowExternalLinks: false, regexOnFullURL: false, include: [], exclude: [], ...over };
}

describe('scope', () => {
  test('path scope: children of the start path only, unless crawlEntireDomain', () => {
    expect(underPath('/docs/a', '/docs')).toBe(true);
    expect(underPath('/docs', '/docs/')).toBe(true);
    expect(underPath('/docs2/a', '/docs')).toBe(false);
    expect(basePathOf(new URL('http://x/docs/index.html'))).toBe('/docs/');
    const r = rules('http://site.localhost/docs/');
    expect(judgeUrl(new URL('http://site.localhost/docs/a'), r)).toEqual({ ok: true, external: false });
    expect(judgeUrl(new URL('http://site.localhost/blog/a'), r)).toEqual({ ok: false, reason: 'outside-path' });
    expect(judgeUrl(new URL('http://site.localhost/blog/a'), { ...r, crawlEntireDomain: true })).toEqual({ ok: true, external: false });
  });

  test('subdomains by registrable domain; www is the same host', () => {
    const start = new URL('http://site.localhost/');
    expect(hostRelation('www.site.localhost', start, false)).toBe('same');
    expect(hostRelation('docs.site.localhost', start, false)).toBe('external');
    expect(hostRelation('docs.site.localhost', start, true)).toBe('subdomain');
    expect(hostRelation('other.localhost', start, true)).toBe('external');
    expect(hostRelation('blog.example.co.uk', new URL('http://www.example.co.uk/'), true)).toBe('subdomain');
    expect(hostRelation('127.0.0.2', new URL('http://127.0.0.1/'), true)).toBe('external');
  });

  test('external links: one hop when allowed, homepages and social networks never', () => {
    const r = rules('http://site.localhost/', { allowExternalLinks: true });
    expect(judgeUrl(new URL('http://127.0.0.2:9/page'), r)).toEqual({ ok: true, external: true });
    expect(judgeUrl(new URL('http://127.0.0.2:9/'), r)).toEqual({ ok: false, reason: 'external-homepage' });
    expect(judgeUrl(new URL('https://github.com/org/repo'), r)).toEqual({ ok: false, reason: 'social' });
    expect(judgeUrl(new URL('http://127.0.0.2:9/page'), rules('http://site.localhost/'))).toEqual({ ok: false, reason: 'external' });
  });

  test('files that are never documents are skipped; PDF, DOCX and XML are followed', () => {
    const r = rules('http://site.localhost/');
    for (const p of ['/a.png', '/b.CSS', '/c.js', '/d.woff2', '/e.zip', '/f.mp4', '/g.exe', '/h.pptx']) {
      expect(judgeUrl(new URL(`http://site.localhost${p}`), r)).toEqual({ ok: false, reason: 'file-type' });
    }
    for (const p of ['/a.pdf', '/b.docx', '/c.xml', '/d.html', '/e']) expect(judgeUrl(new URL(`http://site.localhost${p}`), r).ok).toBe(true);
  });

  test('exclude before include, on the pathname or the full URL', () => {
    const { include, exclude } = compilePatterns(['^/blog/'], ['draft']);
    const r = rules('http://site.localhost/', { include, exclude });
    expect(judgeUrl(new URL('http://site.localhost/blog/post'), r).ok).toBe(true);
    expect(judgeUrl(new URL('http://site.localhost/blog/draft-1'), r)).toEqual({ ok: false, reason: 'excluded' });
    expect(judgeUrl(new URL('http://site.localhost/about'), r)).toEqual({ ok: false, reason: 'not-included' });
    expect(judgeUrl(new URL('http://site.localhost/about?draft=1'), r)).toEqual({ ok: false, reason: 'not-included' });
    const full = compilePatterns(['lang=en'], []);
    const rf = rules('http://site.localhost/', { ...full, regexOnFullURL: true });
    expect(judgeUrl(new URL('http://site.localhost/x?lang=en'), rf).ok).toBe(true);
    expect(judgeUrl(new URL('http://site.localhost/x?lang=de'), rf).ok).toBe(false);
  });
});

describe('patterns', () => {
  const fails = (inc: string[], exc: string[] = []) => {
    try {
      compilePatterns(inc, exc);
    } catch (e) {
      expect(e).toBeInstanceOf(TrawlError);
      expect((e as TrawlError).status).toBe(400);
      return (e as TrawlError).message;
    }
    throw new Error('expected a 400');
  };

  test('look-around and backreferences are refused by name', () => {
    expect(fails(['^/a(?=b)'])).toContain('look-around');
    expect(fails([], ['(?<!x)y'])).toContain('look-around');
    expect(fails(['(a)\\1'])).toContain('backreference');
    expect(fails(['[unclosed'])).toContain('not a valid RE2');
    expect(() => compilePatterns(['\\(?=literal'], [])).not.toThrow();
  });

  test('size limits of interface.md', () => {
    expect(fails(['a'.repeat(PATTERN_LIMITS.chars + 1)])).toContain('at most 2000');
    expect(fails(Array.from({ length: 1001 }, (_, i) => `p${i}`))).toContain('at most 1000');
    expect(fails(Array.from({ length: 600 }, (_, i) => `a${i}`), Array.from({ length: 401 }, (_, i) => `b${i}`))).toContain('together');
    expect(fails(Array.from({ length: 60 }, () => 'x'.repeat(1800)))).toContain('100000');
    expect(() => compilePatterns(Array.from({ length: 1000 }, (_, i) => `p${i}`))).not.toThrow();
  });

  test('patterns search anywhere like RegExp.test', () => {
    const { include } = compilePatterns(['blog/[0-9]+'], []);
    expect(include[0].test('/en/blog/42/x')).toBe(true);
    expect(include[0].test('/en/blog/x')).toBe(false);
  });
});
