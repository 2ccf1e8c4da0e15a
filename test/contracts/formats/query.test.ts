/** Contract cases of the deprecated `query` format (formats/query.ts): an alias of `question` answering in `answer`. */
import { expect } from 'bun:test';
import plugin from '../../../formats/query.ts';
import { testFormat } from '../suites/format.ts';

const page = '<main><p>The museum opens at 9 am every day except Monday.</p><p>Entry costs 12 euros.</p></main>';

testFormat(plugin, [
  { name: 'no model: the passage that answers the prompt', page, options: { prompt: 'When does the museum open?', mode: 'directQuote' }, expect: (doc) => expect(doc.answer).toBe('The museum opens at 9 am every day except Monday.') },
  { name: 'an unknown mode is a 400', options: { prompt: 'x', mode: 'poem' }, invalid: /query/ },
]);
