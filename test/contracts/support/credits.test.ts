/** Contract cases of the `credits` support plugin (messages as core/http/guard.ts writes them). */
import plugin from '../../../plugins/support/credits.ts';
import { scrapeFailure, testSupport } from '../suites/support.ts';

const msg = (n: number) => `Insufficient credits: this request needs 50 credits but the team has ${n} remaining. Lower the limit or the number of URLs, or add credits.`;

testSupport(plugin, [
  { name: 'a crawl over the balance gets the balance as limit', failure: { ...scrapeFailure('PAYMENT_REQUIRED', msg(7), 402, { limit: 50 }), kind: 'crawl' }, expect: { fixParameters: { limit: 7 }, validate: true } },
  { name: 'no credits at all: no parameter fix', failure: { ...scrapeFailure('PAYMENT_REQUIRED', msg(0), 402), kind: 'crawl' }, expect: { fixParameters: {}, validate: true, operatorAction: 'the operator adds credits to the team (`trawl teams credits <team> --add N`)' } },
  { name: 'a scrape: no parameter fix; the re-run waits for credits', failure: scrapeFailure('PAYMENT_REQUIRED', 'Insufficient credits: this request needs 1 credit but the team has 0 remaining. Add credits to continue.', 402), expect: { fixParameters: {}, validate: true } },
]);
