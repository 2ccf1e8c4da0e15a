/** Contract cases of the `robots-blocked` support plugin. */
import plugin from '../../../plugins/support/robots-blocked.ts';
import { testSupport } from '../suites/support.ts';

const crawl = (request: Record<string, unknown>, robotsBlocked: string[]) => ({ id: 'c', kind: 'crawl' as const, url: 'http://127.0.0.1/', request, status: 'completed', completed: 1, pageErrors: [], robotsBlocked });

testSupport(plugin, [
  { name: 'blocked pages: ignoreRobotsTxt', failure: crawl({ url: 'http://127.0.0.1/' }, ['http://127.0.0.1/private/a']), expect: { fixParameters: { ignoreRobotsTxt: true }, validate: true } },
  { name: 'already ignoring robots.txt: not this class', failure: crawl({ ignoreRobotsTxt: true }, ['http://127.0.0.1/private/a']), expect: null },
]);
