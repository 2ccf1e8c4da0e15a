/** Contract cases of the `markdown` format (formats/markdown.ts). */
import { expect } from 'bun:test';
import plugin from '../../../formats/markdown.ts';
import { testFormat } from '../suites/format.ts';

const page = '<html><head><title>T</title></head><body><nav>Menu</nav><main><h1>Head</h1><p>Body with <a href="/x">a link</a> and <img src="data:image/png;base64,AAAA"></p></main></body></html>';

testFormat(plugin, [
  { name: 'converts the main content', page, expect: (doc) => expect(doc.markdown).toContain('# Head') },
  { name: 'onlyMainContent false keeps the navigation', page, scrape: { onlyMainContent: false }, expect: (doc) => expect(doc.markdown).toContain('Menu') },
  { name: 'removeBase64Images replaces data: images', page, expect: (doc) => expect(doc.markdown).not.toContain('AAAA') },
  { name: 'an empty page gives an empty string', page: '', expect: (doc) => expect(doc.markdown).toBe('') },
  {
    name: 'a page whose only text is site chrome: empty markdown with a warning naming onlyMainContent',
    page: `<html><body><footer>${Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">Footer link ${i}</a>`).join(' ')}</footer></body></html>`,
    expect: (doc) => {
      expect(doc.markdown).toBe('');
      expect(doc.warning).toContain('onlyMainContent found no main content');
    },
  },
  {
    name: 'the same page with onlyMainContent false: the footer, no warning',
    page: `<html><body><footer>${Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">Footer link ${i}</a>`).join(' ')}</footer></body></html>`,
    scrape: { onlyMainContent: false },
    expect: (doc) => {
      expect(doc.markdown).toContain('Footer link 11');
      expect(doc.warning).toBeUndefined();
    },
  },
  { name: 'is the default format', page, expect: (doc) => expect(typeof doc.markdown).toBe('string') },
]);
