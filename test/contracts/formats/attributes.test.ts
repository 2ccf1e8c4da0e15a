/** Contract cases of the `attributes` format (formats/attributes.ts). */
import { expect } from 'bun:test';
import plugin from '../../../formats/attributes.ts';
import { testFormat } from '../suites/format.ts';

const page = '<ul><li data-id="1" class="item">a</li><li data-id="2" class="item">b</li><li class="item">c</li></ul><a href="/x" rel="next">n</a>';

testFormat(plugin, [
  {
    name: 'values of each selector and attribute, in request and document order',
    page,
    options: { selectors: [{ selector: 'li.item', attribute: 'data-id' }, { selector: 'a[rel=next]', attribute: 'href' }, { selector: 'table', attribute: 'id' }] },
    expect: (doc) =>
      expect(doc.attributes).toEqual([
        { selector: 'li.item', attribute: 'data-id', values: ['1', '2'] },
        { selector: 'a[rel=next]', attribute: 'href', values: ['/x'] },
        { selector: 'table', attribute: 'id', values: [] },
      ]),
  },
  { name: 'an invalid selector is a 400 naming it', options: { selectors: [{ selector: 'li[[', attribute: 'id' }] }, invalid: /attributes\.selectors: invalid CSS selector "li\[\["/ },
  { name: 'selectors are required', options: {}, invalid: /attributes.*selectors/ },
]);
