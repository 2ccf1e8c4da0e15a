/** The markdown, html, rawHtml and links format plugins, fed the way the scrape pipeline feeds them. */
import { describe, expect, test } from 'bun:test';
import markdown from '../../formats/markdown.ts';
import html from '../../formats/html.ts';
import rawHtml from '../../formats/raw-html.ts';
import links from '../../formats/links.ts';
import htmlParser from '../../parsers/html.ts';
import { extractLinks } from '../../parsers/html/links.ts';
import { BUILTIN_PLUGINS } from '../../core/registry.ts';
import { context, fixture, formatInput, options } from './helpers.ts';

const PAGE = `<html><head><base href="https://site.example/docs/"><title>T</title></head><body>
  <nav><a href="/home">Home</a> <a href="#top">Top</a></nav>
  <article><h1>Article</h1><p>Text with <a href="page2.html#part">a relative link</a> and an image
  <img src="data:image/png;base64,iVBORw0KGgo=" alt="inline chart">, long enough to be the main content of this page.</p>
  <p>Another paragraph, also long enough, with <a href="mailto:team@site.example">mail</a>, <a href="javascript:alert(1)">js</a>,
  <a href="tel:+123">phone</a> and <a href="https://other.test/x">external</a> links.</p></article>
  <map><area href="/area-link"></map><a href="page2.html#part">dup</a><a href="http://[bad">bad</a></body></html>`;

describe('format plugins', () => {
  test('registry names point at these plugins', async () => {
    for (const [name, plugin] of [['markdown', markdown], ['html', html], ['rawHtml', rawHtml], ['links', links]] as const) {
      const loaded = await BUILTIN_PLUGINS.format[name]();
      expect(loaded.default).toBe(plugin);
      expect(loaded.default.name).toBe(name);
      expect(loaded.default.kind).toBe('format');
    }
  });

  test('markdown converts the cleaned HTML; base64 images replaced unless disabled', async () => {
    const out = (await markdown.produce(formatInput(PAGE, 'https://site.example/docs/a.html'), {}, context())) as { markdown: string };
    expect(out.markdown.startsWith('# Article')).toBe(true);
    expect(out.markdown).toContain('[a relative link](https://site.example/docs/page2.html#part)');
    expect(out.markdown).toContain('![](<Base64-Image-Removed>)');
    expect(out.markdown).not.toContain('Home');
    const keep = (await markdown.produce(formatInput(PAGE, 'https://site.example/docs/a.html', options({ removeBase64Images: false })), {}, context())) as { markdown: string };
    expect(keep.markdown).toContain('![](data:image/png;base64,iVBORw0KGgo=)');
  });

  test('markdown uses the parser markdown when there is one (PDF), still removing base64 images', async () => {
    const input = formatInput(undefined, 'https://site.example/f.pdf', options(), { markdown: '# PDF\n\n![fig](data:image/png;base64,AAAA)', metadata: {} });
    const out = (await markdown.produce(input, {}, context())) as { markdown: string };
    expect(out.markdown).toBe('# PDF\n\n![fig](<Base64-Image-Removed>)');
  });

  test('markdown honours onlyMainContent false and includeTags', async () => {
    const full = (await markdown.produce(formatInput(PAGE, 'https://site.example/docs/a.html', options({ onlyMainContent: false })), {}, context())) as { markdown: string };
    expect(full.markdown).toContain('[Home](https://site.example/home)');
    const only = (await markdown.produce(formatInput(PAGE, 'https://site.example/docs/a.html', options({ includeTags: ['nav'] })), {}, context())) as { markdown: string };
    expect(only.markdown).toBe('[Home](https://site.example/home) [Top](https://site.example/docs/#top)');
  });

  test('html is the cleaned HTML, rawHtml the page as fetched', async () => {
    const input = formatInput(PAGE, 'https://site.example/docs/a.html');
    const h = (await html.produce(input, {}, context())) as { html: string };
    expect(h.html).toContain('<h1>Article</h1>');
    expect(h.html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(h.html).not.toContain('<nav>');
    const r = (await rawHtml.produce(input, {}, context())) as { rawHtml: string };
    expect(r.rawHtml).toBe(PAGE);
    const none = formatInput(undefined, 'https://site.example/f.pdf', options(), { markdown: 'x', metadata: {} });
    expect(((await html.produce(none, {}, context())) as { html: string }).html).toBe('');
    expect(((await rawHtml.produce(none, {}, context())) as { rawHtml: string }).rawHtml).toBe('');
  });

  test('links: whole raw page, absolute, unique, document order; http(s) and mailto only', async () => {
    const out = (await links.produce(formatInput(PAGE, 'https://site.example/docs/a.html'), {}, context())) as { links: string[] };
    expect(out.links).toEqual([
      'https://site.example/home',
      'https://site.example/docs/page2.html#part',
      'mailto:team@site.example',
      'https://other.test/x',
      'https://site.example/area-link',
    ]);
  });

  test('links of a fixture page include navigation and footer links', async () => {
    const found = extractLinks(await fixture('wordpress-blog.html'), 'https://crumbjournal.example/2023/01/sourdough-starter-winter/');
    expect(found).toContain('https://crumbjournal.example/about/');
    expect(found).toContain('https://crumbjournal.example/privacy-policy/');
    expect(found).toContain('https://wordpress.example/');
    expect(new Set(found).size).toBe(found.length);
    expect(found.every((u) => /^(https?:|mailto:)/.test(u))).toBe(true);
  });

  test('the HTML parser reads the links while it parses; the links format returns them as read', async () => {
    const url = 'https://crumbjournal.example/2023/01/sourdough-starter-winter/';
    for (const name of ['wordpress-blog.html', 'news-article.html', 'docs-docusaurus.html']) {
      const page = await fixture(name);
      const parsed = await htmlParser.parse({ bytes: new TextEncoder().encode(page), contentType: 'text/html', url, text: page }, { type: 'html' }, context());
      expect(parsed.links).toEqual(extractLinks(page, url));
      expect(parsed.links!.length).toBeGreaterThan(3);
    }
    const parsed = { html: PAGE, links: ['https://site.example/only-this'], metadata: {} };
    const out = (await links.produce(formatInput(PAGE, 'https://site.example/docs/a.html', options(), parsed), {}, context())) as { links: string[] };
    expect(out.links).toEqual(['https://site.example/only-this']);
  });
});
