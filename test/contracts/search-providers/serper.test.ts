/** Contract cases of the `serper` search provider, against the Serper fake (test/fakes/serper.ts). */
import { expect } from 'bun:test';
import plugin from '../../../plugins/search/serper.ts';
import { testSearchProvider } from '../suites/search-provider.ts';
import { startFakeSerper, SERPER_KEY } from '../../fakes/serper.ts';
import { contractConfig } from '../suites/context.ts';

testSearchProvider(plugin, async () => {
  const fake = startFakeSerper();
  return { config: contractConfig({ SERPER_API_KEY: SERPER_KEY, SERPER_API_URL: fake.origin }), word: 'tide', stop: () => fake.stop() };
}, [
  { name: 'news hits carry a date', query: { source: 'news' }, expect: (hits) => expect(hits.every((h) => typeof h.date === 'string')).toBe(true) },
]);
