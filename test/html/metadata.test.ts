/** Metadata of HTML pages (compat.md §3) and the html parser plugin. */
import { describe, expect, test } from 'bun:test';
import parser, { looksLikeHtmlBytes } from '../../parsers/html.ts';
import { extractMetadata, metaKey } from '../../parsers/html/metadata.ts';
import { parseHtml } from '../../parsers/html/dom.ts';
import { context, fixture } from './helpers.ts';

const meta = (html: string, url = 'https://site.example/a/b.html') => extractMetadata(parseHtml(html), url);

describe('extractMetadata', () => {
  test('page keys: title, description, language, keywords, robots, favicon (absolute)', () => {
    const m = meta(`<html lang="fr-CA"><head><title>  Hello
      World </title><meta name="description" content="Desc"><meta name="keywords" content="a, b">
      <meta name="robots" content="noindex"><link rel="shortcut icon" href="/fav.ico"></head><body></body></html>`);
    expect(m.title).toBe('Hello World');
    expect(m.description).toBe('Desc');
    expect(m.language).toBe('fr-CA');
    expect(m.keywords).toBe('a, b');
    expect(m.robots).toBe('noindex');
    expect(m.favicon).toBe('https://site.example/fav.ico');
  });

  test('Open Graph, article and Dublin Core keys', () => {
    const m = meta(`<head>
      <meta property="og:title" content="T"><meta property="og:description" content="D"><meta property="og:url" content="https://x.test/">
      <meta property="og:image" content="https://x.test/i.png"><meta property="og:audio" content="a.mp3"><meta property="og:determiner" content="the">
      <meta property="og:locale" content="en_US"><meta property="og:locale:alternate" content="fr_FR"><meta property="og:site_name" content="S">
      <meta property="og:video" content="v.mp4"><meta property="article:published_time" content="2024-01-01"><meta property="article:modified_time" content="2024-01-02">
      <meta property="article:section" content="Tech"><meta property="article:tag" content="x"><meta property="article:tag" content="y">
      <meta name="DC.title" content="DCT"><meta name="dcterms.created" content="2020"><meta name="dc.date.created" content="2019">
      </head>`);
    expect(m).toMatchObject({
      ogTitle: 'T', ogDescription: 'D', ogUrl: 'https://x.test/', ogImage: 'https://x.test/i.png', ogAudio: 'a.mp3', ogDeterminer: 'the',
      ogLocale: 'en_US', ogLocaleAlternate: ['fr_FR'], ogSiteName: 'S', ogVideo: 'v.mp4', publishedTime: '2024-01-01', modifiedTime: '2024-01-02',
      articleSection: 'Tech', articleTag: ['x', 'y'], dcTitle: 'DCT', dcTermsCreated: '2020', dcDateCreated: '2019',
    });
  });

  test('other meta tags keep their own name; a repeated tag becomes an array; title may be an array', () => {
    const m = meta(`<head><meta name="title" content="Meta title"><title>Page title</title><meta name="twitter:card" content="summary">
      <meta name="viewport" content="width=device-width"><meta itemprop="name" content="N"><meta property="og:type" content="article">
      <meta name="description" content="one"><meta name="description" content="two"><meta name="empty"></head>`);
    expect(m.title).toEqual(['Page title', 'Meta title']);
    expect(m['twitter:card']).toBe('summary');
    expect(m.viewport).toBe('width=device-width');
    expect(m.name).toBe('N');
    expect(m['og:type']).toBe('article');
    expect(m.description).toEqual(['one', 'two']);
    expect('empty' in m).toBe(false);
    expect(Object.keys(m)[0]).toBe('title');
  });

  test('favicon respects <base href>; icon preferred over apple-touch-icon; svg <title> ignored', () => {
    const m = meta(`<head><base href="https://cdn.test/site/"><link rel="apple-touch-icon" href="apple.png"><link rel="icon" href="icon.png"></head>
      <body><svg><title>Logo</title></svg></body>`);
    expect(m.favicon).toBe('https://cdn.test/site/icon.png');
    expect(m.title).toBeUndefined();
  });

  test('metaKey maps known names and keeps others', () => {
    expect(metaKey('og:site_name')).toBe('ogSiteName');
    expect(metaKey('DCTERMS.Audience')).toBe('dcTermsAudience');
    expect(metaKey('twitter:title')).toBe('twitter:title');
  });

  test('fixture page: WordPress post', async () => {
    const m = meta(await fixture('wordpress-blog.html'), 'https://crumbjournal.example/2023/01/sourdough-starter-winter/');
    expect(m.title).toBe('Why Sourdough Starters Fail in Winter (and How to Fix Yours) – The Crumb Journal');
    expect(m.language).toBe('en-US');
    expect(m.articleTag).toEqual(['sourdough', 'fermentation']);
    expect(m.favicon).toBe('https://crumbjournal.example/wp-content/uploads/2021/05/cropped-favicon-32x32.png');
    expect(m.ogSiteName).toBe('The Crumb Journal');
  });
});

describe('html parser plugin', () => {
  test('declares what it accepts', () => {
    expect(parser.kind).toBe('parser');
    expect(parser.name).toBe('html');
    expect(parser.accepts.mime).toContain('text/html');
    expect(parser.accepts.mime).toContain('application/xhtml+xml');
    expect(parser.accepts.ext).toEqual(expect.arrayContaining(['.html', '.htm', '.xhtml']));
  });

  test('magic sniffs HTML starts and rejects other content', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(looksLikeHtmlBytes(enc('\ufeff  <!DOCTYPE html><html>'))).toBe(true);
    expect(looksLikeHtmlBytes(enc('<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN"><html>'))).toBe(true);
    expect(looksLikeHtmlBytes(enc('<!-- generated --><html lang="en">'))).toBe(true);
    expect(looksLikeHtmlBytes(enc('%PDF-1.7'))).toBe(false);
    expect(looksLikeHtmlBytes(enc('{"a":1}'))).toBe(false);
    expect(looksLikeHtmlBytes(enc('<?xml version="1.0"?><rss version="2.0">'))).toBe(false);
  });

  test('parse returns the HTML unchanged and its metadata; decodes bytes when no text is given', async () => {
    const html = '<html lang="de"><head><title>Grüße</title></head><body><p>x</p></body></html>';
    const bytes = new TextEncoder().encode(html);
    const out = await parser.parse({ bytes, contentType: 'text/html', url: 'https://site.example/' }, { type: 'html' }, context());
    expect(out.html).toBe(html);
    expect(out.metadata.title).toBe('Grüße');
    expect(out.metadata.language).toBe('de');
  });
});
