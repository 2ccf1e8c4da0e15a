/** Contract cases of the `rawHtml` format (formats/raw-html.ts). */
import { expect } from 'bun:test';
import plugin from '../../../formats/raw-html.ts';
import { testFormat } from '../suites/format.ts';

const page = '<html><body><script>x()</script><p>raw</p></body></html>';

testFormat(plugin, [
  { name: 'is the page exactly as fetched', page, expect: (doc) => expect(doc.rawHtml).toBe(page) },
  { name: 'a non-HTML document without HTML gives an empty string', bytes: new TextEncoder().encode('a,b\n1,2\n'), contentType: 'text/csv', expect: (doc) => expect(doc.rawHtml).toBe('') },
]);
