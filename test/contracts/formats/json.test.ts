/** Contract cases of the `json` format (formats/json.ts): schema checks, deterministic fill, model path with chunk merging. */
import { expect } from 'bun:test';
import plugin from '../../../formats/json.ts';
import { testFormat } from '../suites/format.ts';
import { scriptedModel } from '../../model-formats/scripted-model.ts';

const page = '<html><head><script type="application/ld+json">{"@type":"Product","name":"Lamp","offers":{"price":"19.50"}}</script></head><body><main><h1>Lamp</h1><p>Colour: Green</p></main></body></html>';
const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, colour: { type: 'string' }, voltage: { type: 'integer' } } };

testFormat(plugin, [
  {
    name: 'no model: stated fields filled, others null, report in metadata',
    page,
    options: { schema },
    expect: (doc) => {
      expect(doc.json).toEqual({ name: 'Lamp', price: 19.5, colour: 'Green', voltage: null });
      expect((doc.metadata as Record<string, unknown>).jsonFilled).toEqual({ name: 'json-ld', price: 'json-ld', colour: 'label' });
      expect((doc.metadata as Record<string, unknown>).jsonMissing).toEqual(['voltage']);
      expect(doc.warning).toMatch(/No language model is configured/);
    },
  },
  {
    name: 'with a model: chunks answered and merged field by field (arrays concatenated, deduplicated)',
    page: `<main>${Array.from({ length: 40 }, (_, i) => `<p>Paragraph ${i} ${'word '.repeat(60)}</p>`).join('')}</main>`,
    options: { schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, title: { type: 'string' } } } },
    model: scriptedModel((_req, i) => (i === 0 ? { tags: ['a', 'b'], title: null } : { tags: ['b', 'c'], title: `T${i}` }), 1_000),
    expect: (doc) => {
      const json = doc.json as { tags: string[]; title: string };
      expect(json.tags).toEqual(['a', 'b', 'c']);
      expect(json.title).toBe('T1');
      expect((doc.metadata as Record<string, number>).jsonChunks).toBeGreaterThan(1);
    },
  },
  {
    name: 'no model, a prompt without a schema: the main item as the page states it',
    page,
    options: { prompt: 'the product' },
    expect: (doc) => expect(doc.json).toEqual({ name: 'Lamp', offers: { price: '19.50' } }),
  },
  {
    name: 'no model, a page with no structured data: its labelled fields',
    page: '<main><dl><dt>Voltage</dt><dd>230 V</dd></dl><p>Colour: Green</p></main>',
    options: { prompt: 'the specs' },
    expect: (doc) => expect(doc.json).toEqual({ voltage: '230 V', colour: 'Green' }),
  },
  { name: 'neither prompt nor schema is a 400', options: {}, invalid: /needs a "prompt" or a "schema"/ },
  { name: 'a schema that is not JSON Schema is a 400 naming it', options: { schema: { type: 'object', properties: { a: { type: 'strnig' } } } }, invalid: /json\.schema is not a valid JSON Schema/ },
]);
