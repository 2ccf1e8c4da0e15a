/** Contract cases of the `anti-bot` support plugin. */
import plugin from '../../../plugins/support/anti-bot.ts';
import { testSupport } from '../suites/support.ts';

const turned = (request: Record<string, unknown>, statusCode = 403) => ({ id: 's', kind: 'scrape' as const, url: 'http://127.0.0.1/p', request: { url: 'http://127.0.0.1/p', ...request }, document: { statusCode, contentChars: 300 } });

// The suite's context has no enhanced proxy: the answer names the variable and offers no re-run.
testSupport(plugin, [
  { name: 'a 403 without an enhanced proxy configured: the operator sets one', failure: turned({}), expect: { fixParameters: {}, validate: false } },
  { name: 'already enhanced: not this class', failure: turned({ proxy: 'enhanced' }), expect: null },
  { name: 'a 404 is not this class', failure: turned({}, 404), expect: null },
]);
