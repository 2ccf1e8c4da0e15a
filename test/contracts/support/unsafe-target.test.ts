/** Contract cases of the `unsafe-target` support plugin. */
import plugin from '../../../plugins/support/unsafe-target.ts';
import { scrapeFailure, testSupport } from '../suites/support.ts';

testSupport(plugin, [
  { name: 'UNSAFE_TARGET points the operator at TRAWL_ALLOW_PRIVATE_TARGETS', failure: scrapeFailure('UNSAFE_TARGET', 'The target 10.0.0.5 is a private address.', 403), expect: { fixParameters: {}, validate: true, operatorAction: 'the operator allows the address in TRAWL_ALLOW_PRIVATE_TARGETS and restarts Trawl' } },
  { name: 'a threat block is not this class', failure: scrapeFailure('THREAT_BLOCKED_TLD', 'blocked', 403), expect: null },
]);
