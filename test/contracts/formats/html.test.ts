/** Contract cases of the `html` format (formats/html.ts). */
import { expect } from 'bun:test';
import plugin from '../../../formats/html.ts';
import { testFormat } from '../suites/format.ts';

const page = '<html><body><script>x()</script><main><p>Kept <a href="/a">rel</a></p></main><div style="display:none">hidden</div></body></html>';

testFormat(plugin, [
  {
    name: 'cleans scripts and makes URLs absolute',
    page,
    expect: (doc) => {
      expect(doc.html).not.toContain('<script');
      expect(doc.html).toContain('http://127.0.0.1:9/a');
    },
  },
  { name: 'excludeTags removes matches', page: '<main><p class="ad">ad</p><p>text</p></main>', scrape: { excludeTags: ['.ad'] }, expect: (doc) => expect(doc.html).not.toContain('ad<') },
  { name: 'an invalid includeTags selector is a 400', page, scrape: { includeTags: ['p[['] }, invalid: /includeTags/ },
  { name: 'a PDF left unparsed carries the base64 text', bytes: new TextEncoder().encode('%PDF-1.4\n%%EOF'), contentType: 'application/pdf', scrape: { parsers: [] }, expect: (doc) => expect(doc.html).toBe(Buffer.from('%PDF-1.4\n%%EOF').toString('base64')) },
]);
