/** Contract cases of the `js-needed` support plugin. */
import plugin from '../../../plugins/support/js-needed.ts';
import { testSupport } from '../suites/support.ts';

const empty = (request: Record<string, unknown>, statusCode = 200) => ({ id: 's', kind: 'scrape' as const, url: 'http://127.0.0.1/app', request: { url: 'http://127.0.0.1/app', ...request }, document: { statusCode, contentChars: 3 } });

testSupport(plugin, [
  { name: 'an empty 200 page: wait for the browser', failure: empty({}), expect: { fixParameters: { waitFor: 5000 }, validate: true, confidence: 'medium' } },
  { name: 'a short timeout: half of it', failure: empty({ timeout: 4000 }), expect: { fixParameters: { waitFor: 2000 } } },
  { name: 'already waiting: not this class', failure: empty({ waitFor: 2000 }), expect: null },
  { name: 'an error status: not this class', failure: empty({}, 403), expect: null },
]);
