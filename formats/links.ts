/**
 * The `links` format: every unique absolute link of the whole raw page in document order (not only of
 * the main content), http(s) and mailto, fragments kept, same-page `#...` links dropped. Rules and
 * reasons in core/html/links.ts. The HTML parser reads them while it parses the page, fetched or
 * rendered (`ParsedDocument.links`); HTML from other parsers (DOCX) is read here.
 */
import { defineFormat } from '../core/plugin.ts';

export default defineFormat({
  name: 'links',
  content: 'urls',
  // The crawl follows this format's output (core/crawl/page.ts).
  role: 'page-links',
  pure: true,
  async produce(input) {
    if (input.parsed.links) return { links: input.parsed.links };
    const html = input.rawHtml() ?? input.parsed.html ?? '';
    if (!html) return { links: [] };
    const { extractLinks } = await import('../core/html/links.ts');
    return { links: extractLinks(html, input.url) };
  },
});
