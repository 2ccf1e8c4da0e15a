/** Contract cases of the `highlights` format (formats/highlights.ts): best matching sentences with no model. */
import { expect } from 'bun:test';
import plugin from '../../../formats/highlights.ts';
import { testFormat } from '../suites/format.ts';
import { scriptedModel } from '../../model-formats/scripted-model.ts';

const page = '<main><p>Our bakery opened in 1998. We bake sourdough bread every morning. The sourdough starter is twenty years old.</p><p>Parking is free.</p></main>';

testFormat(plugin, [
  {
    name: 'no model: sentences that match the query, quoted, in page order',
    page,
    options: { query: 'sourdough bread' },
    expect: (doc) => {
      expect(doc.highlights).toBe('We bake sourdough bread every morning.\nThe sourdough starter is twenty years old.');
      expect(doc.warning).toMatch(/No language model/);
    },
  },
  { name: 'no model: null when nothing matches', page, options: { query: 'quantum chromodynamics' }, expect: (doc) => expect(doc.highlights).toBeNull() },
  { name: 'with a model: its highlights', page, options: { query: 'bread', mode: 'directQuote' }, model: scriptedModel(() => 'We bake sourdough bread every morning.'), expect: (doc) => expect(doc.highlights).toBe('We bake sourdough bread every morning.') },
  { name: 'query is required', options: { mode: 'freeform' }, invalid: /query/ },
]);
