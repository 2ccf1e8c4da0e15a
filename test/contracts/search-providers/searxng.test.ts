/**
 * Contract cases of the `searxng` search provider, against a fake of SearXNG's JSON API
 * (`GET /search?q=&format=json&pageno=` → `{ results: [{ url, title, content }] }`) served here.
 */
import { expect } from 'bun:test';
import plugin from '../../../plugins/search/searxng.ts';
import { testSearchProvider } from '../suites/search-provider.ts';
import { serveFixtures } from '../../helpers/fixture-site.ts';
import { contractConfig } from '../suites/context.ts';

const RESULTS = [1, 2, 3].map((i) => ({ url: `https://coast.example/tide-${i}`, title: `Tide <b>${i}</b>`, content: `About tides, part ${i}.` }));

testSearchProvider(plugin, async () => {
  const site = serveFixtures({
    '/search': (_req, url) =>
      Response.json({ results: url.searchParams.get('format') === 'json' && url.searchParams.get('pageno') === '1' ? RESULTS : [] }),
  });
  return { config: contractConfig({ SEARXNG_URL: site.origin }), word: 'tide', stop: () => site.stop() };
}, [
  { name: 'HTML in titles becomes text', query: {}, expect: (hits) => expect(hits[0]?.title).toBe('Tide 1') },
]);
