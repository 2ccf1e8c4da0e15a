/** Contract cases of the `google` search provider, against the Programmable Search fake (test/fakes/google-cse.ts). */
import { expect } from 'bun:test';
import plugin from '../../../plugins/search/google.ts';
import { testSearchProvider } from '../suites/search-provider.ts';
import { startFakeGoogle, GOOGLE_CX, GOOGLE_KEY } from '../../fakes/google-cse.ts';
import { contractConfig } from '../suites/context.ts';

testSearchProvider(plugin, async () => {
  const fake = startFakeGoogle();
  return { config: contractConfig({ GOOGLE_CSE_KEY: GOOGLE_KEY, GOOGLE_CSE_ID: GOOGLE_CX, GOOGLE_CSE_URL: `${fake.origin}/customsearch/v1` }), word: 'tide', stop: () => fake.stop() };
}, [
  { name: 'limit 1 gives one hit', query: { limit: 1 }, expect: (hits) => expect(hits).toHaveLength(1) },
]);
