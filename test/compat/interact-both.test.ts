/**
 * Interact with both `code` and `prompt` (the SDK sends both when given both; compat.md §5, issue 25
 * item 4): the code runs, the prompt is not used (no LLM needed), and `output` holds the result as it
 * does in prompt mode.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { startSite, type Site } from '../scrape-options/site.ts';
import { startOn, type TestTrawl } from '../scrape-options/helpers.ts';

setDefaultTimeout(60_000);

let site: Site;
let trawl: TestTrawl;

beforeAll(async () => {
  site = startSite();
  trawl = await startOn();
});
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

test('code and prompt together: the code runs and output holds its result', async () => {
  const scraped = await trawl.post('/v2/scrape', { url: site.url('/article'), maxAge: 0 });
  const id = scraped.body.data.metadata.scrapeId;
  const fc = new Firecrawl({ apiKey: trawl.adminKey ?? '', apiUrl: trawl.base });
  const res: any = await fc.interact(id, { code: 'return await page.title()', prompt: 'What is the title of the page?' });
  expect(res).toMatchObject({ success: true, exitCode: 0, killed: false, output: 'Tide tables\n', stdout: 'Tide tables\n' });
  // A prompt alone still needs an LLM (none is configured here).
  const alone = await trawl.post(`/v2/scrape/${id}/interact`, { prompt: 'What is the title?' }, trawl.adminKey ? { authorization: `Bearer ${trawl.adminKey}` } : {});
  expect(alone.status).toBe(503);
  await fc.stopInteraction(id);
});
