/** Contract cases of the `html` parser (parsers/html.ts). */
import { expect } from 'bun:test';
import plugin from '../../../parsers/html.ts';
import { testParser } from '../suites/parser.ts';

const page = '<html lang="de"><head><title>Titel</title><meta name="description" content="Kurz"></head><body><a href="/x">x</a></body></html>';

testParser(plugin, [
  {
    name: 'metadata, links and html of a page',
    bytes: new TextEncoder().encode(page),
    contentType: 'text/html',
    magic: true,
    expect: (doc) => {
      expect(doc.metadata).toMatchObject({ title: 'Titel', description: 'Kurz', language: 'de' });
      expect(doc.links).toEqual(['http://127.0.0.1:9/x']);
      expect(doc.html).toContain('<a href="/x">');
    },
  },
  { name: 'an empty page', bytes: new Uint8Array(0), contentType: 'text/html', expect: (doc) => expect(doc.html).toBe('') },
]);
