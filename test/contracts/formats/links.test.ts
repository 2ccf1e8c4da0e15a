/** Contract cases of the `links` format (formats/links.ts). */
import { expect } from 'bun:test';
import plugin from '../../../formats/links.ts';
import { testFormat } from '../suites/format.ts';

testFormat(plugin, [
  {
    name: 'absolute, unique, in document order; same-page fragments and javascript: dropped',
    page: '<a href="/b">b</a><a href="https://o.test/c">c</a><a href="/b">again</a><a href="#top">top</a><a href="javascript:x()">js</a><a href="mailto:a@b.test">m</a>',
    expect: (doc) => expect(doc.links).toEqual(['http://127.0.0.1:9/b', 'https://o.test/c', 'mailto:a@b.test']),
  },
  {
    name: 'a PDF left unparsed (parsers: []): the unparsed fallback format carries the file',
    bytes: new TextEncoder().encode('%PDF-1.4\n%%EOF'),
    contentType: 'application/pdf',
    scrape: { parsers: [] },
    expect: (doc) => expect(doc.rawBase64).toBe(Buffer.from('%PDF-1.4\n%%EOF').toString('base64')),
  },
  { name: 'a page without links gives []', page: '<p>none</p>', expect: (doc) => expect(doc.links).toEqual([]) },
]);
