/** Contract cases of the `include-paths` support plugin. */
import plugin from '../../../plugins/support/include-paths.ts';
import { testSupport } from '../suites/support.ts';

const crawl = (request: Record<string, unknown>, completed: number) => ({ id: 'c', kind: 'crawl' as const, url: 'http://127.0.0.1/', request, status: 'completed', completed, pageErrors: [], robotsBlocked: [] });

testSupport(plugin, [
  { name: '0 pages with includePaths: drop them', failure: crawl({ includePaths: ['^/blog/'] }, 0), expect: { fixParameters: { includePaths: [] }, validate: true, confidence: 'medium' } },
  { name: '0 pages with both filters: drop both', failure: crawl({ includePaths: ['^/a'], excludePaths: ['.*'] }, 0), expect: { fixParameters: { includePaths: [], excludePaths: [] } } },
  { name: 'pages found: not this class', failure: crawl({ includePaths: ['^/blog/'] }, 4), expect: null },
  { name: 'no filters: not this class', failure: crawl({}, 0), expect: null },
]);
