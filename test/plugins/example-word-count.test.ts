/** Contract cases of the example format plugin examples/plugins/word-count.ts (docs/plugins.md). */
import { expect } from 'bun:test';
import plugin from '../../examples/plugins/word-count.ts';
import { testFormat } from '../contracts/suites/format.ts';

testFormat(plugin, [
  {
    name: 'counts the words of the markdown, not link targets or markup',
    page: '<main><h1>Tide tables</h1><p>Boats leave at <a href="https://example.test/dawn">dawn</a>.</p></main>',
    expect: (doc) => expect(doc.wordCount).toEqual({ words: 6, readingMinutes: 1 }),
  },
  {
    name: 'reading time at 200 words a minute',
    page: `<p>${'word '.repeat(1000)}</p>`,
    expect: (doc) => expect(doc.wordCount).toEqual({ words: 1000, readingMinutes: 5 }),
  },
  {
    name: 'requested with markdown, both are in the document',
    page: '<p>one two three</p>',
    with: ['markdown'],
    expect: (doc) => {
      expect(doc.markdown).toContain('one two three');
      expect((doc.wordCount as { words: number }).words).toBe(3);
    },
  },
]);
