/**
 * The HTML parser plugin: web pages (text/html, application/xhtml+xml). It returns the page HTML as
 * is with its parsed tree (formats clean it through `cleanDom`, parsers/html/clean.ts, which takes the
 * tree over instead of parsing again) and the page metadata of
 * compat.md §3 (title, description, language, favicon, Open Graph, Dublin Core, article times and
 * every other meta tag). Decoding is the engine's job: `input.text` is used when present, else the
 * bytes are read as UTF-8.
 */
import { defineParser } from '../core/plugin.ts';
// Static: the registry already loads this plugin lazily, and a dynamic import per page costs time.
import { parseHtml } from './html/dom.ts';
import { extractMetadata } from './html/metadata.ts';
import { linksOf } from './html/links.ts';

const HTML_START = /^(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<title[\s>]|<meta[\s>])/i;

/** Sniffs HTML from the first bytes: a doctype or an html/head/body tag, possibly after an XML declaration. */
export function looksLikeHtmlBytes(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024)).replace(/^\ufeff|^\u00ef\u00bb\u00bf/, '');
  let s = head.trimStart();
  if (s.startsWith('<?xml')) s = s.slice(s.indexOf('?>') + 2).trimStart();
  while (s.startsWith('<!--')) {
    const end = s.indexOf('-->');
    if (end < 0) return false;
    s = s.slice(end + 3).trimStart();
  }
  return HTML_START.test(s);
}

export default defineParser({
  name: 'html',
  accepts: {
    mime: ['text/html', 'application/xhtml+xml'],
    ext: ['.html', '.htm', '.xhtml'],
    magic: looksLikeHtmlBytes,
  },
  async parse(input, _options, ctx) {
    const started = performance.now();
    const html = input.text ?? new TextDecoder('utf-8').decode(input.bytes);
    const tree = parseHtml(html);
    const metadata = extractMetadata(tree, input.url);
    // Read now: the cleaner takes the tree over and changes it.
    const links = linksOf(tree, input.url);
    ctx.log.debug({ ms: Math.round(performance.now() - started), chars: html.length }, 'parsed html');
    return { html, tree, links, metadata };
  },
});
