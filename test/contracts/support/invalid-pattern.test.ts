/** Contract cases of the `invalid-pattern` support plugin (messages as core/crawl/patterns.ts writes them). */
import plugin from '../../../plugins/support/invalid-pattern.ts';
import { scrapeFailure, testSupport } from '../suites/support.ts';

const crawl = (message: string, request: Record<string, unknown>) => ({ ...scrapeFailure('BAD_REQUEST', message, 400, request), kind: 'crawl' as const });

testSupport(plugin, [
  {
    name: 'a look-around pattern is dropped from its list',
    failure: crawl('excludePaths[1] "^/(?!blog)" uses look-around ((?=, (?!, (?<=, (?<!), which RE2 patterns do not support.', { excludePaths: ['^/tmp', '^/(?!blog)'] }),
    expect: { fixParameters: { excludePaths: ['^/tmp'] }, validate: true },
  },
  { name: 'another 400 is not this class', failure: crawl('delay must be at most 60 seconds', { delay: 100 }), expect: null },
  { name: 'a scrape is not this class', failure: scrapeFailure('BAD_REQUEST', 'includePaths[0] "(" is not a valid RE2 regular expression', 400, { includePaths: ['('] }), expect: null },
]);
