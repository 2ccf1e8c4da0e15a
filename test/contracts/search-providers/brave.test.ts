/** Contract cases of the `brave` search provider, against the Brave API fake (test/fakes/brave.ts). */
import { expect } from 'bun:test';
import plugin from '../../../plugins/search/brave.ts';
import { testSearchProvider } from '../suites/search-provider.ts';
import { startFakeBrave, BRAVE_KEY } from '../../fakes/brave.ts';
import { contractConfig } from '../suites/context.ts';

testSearchProvider(plugin, async () => {
  const fake = startFakeBrave();
  return { config: contractConfig({ BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: `${fake.origin}/res/v1` }), word: 'tide', stop: () => fake.stop() };
}, [
  { name: 'images carry the image URL and size', query: { source: 'images' }, expect: (hits) => expect(hits.every((h) => typeof h.imageUrl === 'string')).toBe(true) },
]);
