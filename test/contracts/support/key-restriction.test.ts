/** Contract cases of the `key-restriction` support plugin (messages as core/http/guard.ts writes them). */
import plugin from '../../../plugins/support/key-restriction.ts';
import { scrapeFailure, testSupport } from '../suites/support.ts';

testSupport(plugin, [
  {
    name: 'a format restriction keeps the allowed formats asked',
    failure: scrapeFailure('FORBIDDEN', 'This API key may not request the format html. Formats allowed for this key: markdown, links.', 403, { formats: ['markdown', 'html'] }),
    expect: { fixParameters: { formats: ['markdown'] }, validate: true },
  },
  {
    name: 'no allowed format asked: the first allowed one',
    failure: scrapeFailure('FORBIDDEN', 'This API key may not request the format html. Formats allowed for this key: links, markdown.', 403, { formats: [{ type: 'html' }] }),
    expect: { fixParameters: { formats: ['links'] } },
  },
  {
    name: 'an endpoint group restriction has no parameter fix: the admin grants the group, the re-run is unchanged',
    failure: scrapeFailure('FORBIDDEN', 'This API key is not allowed to call the crawl endpoints. Endpoint groups allowed for this key: scrape.', 403),
    expect: { fixParameters: {}, validate: true, operatorAction: 'an admin adds the crawl endpoint group to this key (`trawl keys restrict <key> --endpoints scrape,crawl`)' },
  },
  { name: "another team's job is not this class", failure: scrapeFailure('FORBIDDEN', 'Forbidden', 403), expect: null },
]);
