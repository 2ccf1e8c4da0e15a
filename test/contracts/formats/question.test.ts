/** Contract cases of the `question` format (formats/question.ts): `answer` by BM25 passage with no model, by the model with one. */
import { expect } from 'bun:test';
import plugin from '../../../formats/question.ts';
import { testFormat } from '../suites/format.ts';
import { scriptedModel } from '../../model-formats/scripted-model.ts';

const page = '<main><h1>Kettle</h1><p>The kettle holds 1.7 litres of water.</p><p>It switches itself off when the water boils.</p><p>Shipping takes three days.</p></main>';

testFormat(plugin, [
  {
    name: 'no model: the best matching passage, quoted',
    page,
    options: { question: 'How much water does the kettle hold?' },
    expect: (doc) => {
      expect(doc.answer).toBe('The kettle holds 1.7 litres of water.');
      expect(doc.warning).toMatch(/No language model is configured/);
      expect((doc.metadata as Record<string, unknown>).modelUsed).toBe(false);
    },
  },
  { name: 'no model: null when nothing matches', page, options: { question: 'Who painted the Mona Lisa?' }, expect: (doc) => expect(doc.answer).toBeNull() },
  {
    name: 'with a model: its answer from the page',
    page,
    options: { question: 'How much water?' },
    model: scriptedModel((req) => (JSON.stringify(req.messages).includes('1.7 litres') ? '1.7 litres' : 'NOT_FOUND')),
    expect: (doc) => expect(doc.answer).toBe('1.7 litres'),
  },
  { name: 'question is required', options: {}, invalid: /question/ },
]);
