/** Contract cases of the `local` search provider (the instance's own index, core/search/local-index.ts) on PGlite. */
import { expect } from 'bun:test';
import plugin from '../../../plugins/search/local.ts';
import { testSearchProvider } from '../suites/search-provider.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { upsertPages } from '../../../core/search/local-index.ts';
import { contractConfig } from '../suites/context.ts';

testSearchProvider(plugin, async () => {
  const t = await openTestDatabase('pglite');
  const page = (i: number) => ({
    teamId: 'team-a',
    url: `https://coast.example/harbour-${i}`, host: 'coast.example', path: `/harbour-${i}`, title: `Harbour guide ${i}`,
    description: 'Where boats moor.', content: `The harbour ${i} has moorings and a tide gauge.`, kind: 'web' as const, filetype: 'html', adult: false,
  });
  await upsertPages(t.db, [page(1), page(2), page(3)]);
  return { config: contractConfig(), db: t.db, word: 'harbour', indexTeams: ['team-a'], stop: () => t.close() };
}, [
  { name: 'a word nobody wrote finds nothing', query: { query: 'zeppelinfahrt' }, expect: (hits) => expect(hits).toEqual([]) },
], { alwaysConfigured: true });
