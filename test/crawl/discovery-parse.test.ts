/**
 * Parsing for discovery: links of a page (base href, relative, non-http schemes), sitemap XML
 * (urlset, index, namespaces, text sitemaps), sitemap candidates, and robots.txt evaluation.
 */
import { describe, expect, test } from 'bun:test';
import { extractLinks } from '../../core/crawl/links.ts';
import { parseSitemap, sitemapCandidates } from '../../core/crawl/sitemap.ts';
import { parseRobots } from '../../core/crawl/robots.ts';

describe('extractLinks', () => {
  test('resolves against <base href>, keeps order, drops non-http links and duplicates', () => {
    const html = `<html><head><title> The  page </title><meta name="description" content="About it">
      <base href="/docs/"></head><body>
      <a href="a.html">A</a> <a href="/b#x">B</a> <a href="a.html">again</a>
      <a href="mailto:x@y.z">m</a> <a href="javascript:void(0)">j</a> <a href="tel:1">t</a>
      <A HREF="https://other.example/c?q=1">C</A> <area href="map.html"> <a>no href</a> <a href="">empty</a>
      <a href="http://[bad">bad</a></body></html>`;
    const out = extractLinks(html, 'http://site.test/start/page.html');
    expect(out.links).toEqual(['http://site.test/docs/a.html', 'http://site.test/b#x', 'https://other.example/c?q=1', 'http://site.test/docs/map.html']);
    expect(out.title).toBe('The page');
    expect(out.description).toBe('About it');
  });

  test('decodes entities in hrefs', () => {
    expect(extractLinks('<a href="/q?a=1&amp;b=2">x</a>', 'http://s/').links).toEqual(['http://s/q?a=1&b=2']);
  });
});

describe('parseSitemap', () => {
  test('urlset with namespaces and entities', () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
      <url><loc> http://s/a?x=1&amp;y=2 </loc><image:image><image:loc>http://s/img.png</image:loc></image:image></url>
      <url><loc>http://s/b</loc></url><url><loc>not a url</loc></url></urlset>`;
    expect(parseSitemap(xml)).toEqual({ pages: ['http://s/a?x=1&y=2', 'http://s/b'], children: [] });
  });

  test('sitemap index and prefixed tags', () => {
    const xml = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>http://s/one.xml</sm:loc></sm:sitemap>
      <sm:sitemap><sm:loc>http://s/two.xml.gz</sm:loc></sm:sitemap></sm:sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({ pages: [], children: ['http://s/one.xml', 'http://s/two.xml.gz'] });
  });

  test('text sitemap', () => {
    expect(parseSitemap('http://s/a\nhttp://s/b\r\n\nftp://x/\n')).toEqual({ pages: ['http://s/a', 'http://s/b'], children: [] });
  });

  test('candidates: start folder, robots Sitemap lines, origin', () => {
    expect(sitemapCandidates(new URL('http://s/docs/intro.html'), ['http://s/custom.xml'])).toEqual([
      'http://s/docs/sitemap.xml', 'http://s/custom.xml', 'http://s/sitemap.xml',
    ]);
    expect(sitemapCandidates(new URL('http://s/'), [])).toEqual(['http://s/sitemap.xml']);
  });
});

describe('robots', () => {
  const txt = `User-agent: *\nDisallow: /private/\nAllow: /private/open\n\nUser-agent: SpecialBot\nDisallow: /\n\nSitemap: http://s/sm.xml\n`;
  test('rules for Trawl and for a custom agent; sitemaps listed', () => {
    const r = parseRobots('http://s', txt);
    expect(r.isAllowed('http://s/a')).toBe(true);
    expect(r.isAllowed('http://s/private/x')).toBe(false);
    expect(r.isAllowed('http://s/private/open')).toBe(true);
    expect(r.sitemaps()).toEqual(['http://s/sm.xml']);
    const special = parseRobots('http://s', txt, 'SpecialBot');
    expect(special.isAllowed('http://s/a')).toBe(false);
  });
  test('empty robots.txt allows everything', () => {
    expect(parseRobots('http://s', '').isAllowed('http://s/anything')).toBe(true);
  });
});
