/**
 * `redactPII` through `POST /v2/scrape` (issue 17): a fixture page with an email, a phone number, a
 * mailto link and PII in the title comes back without them in markdown, html, links and metadata;
 * everything else is the same text as without redaction. Bad entity names answer 400.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { upload } from '../parse/helpers.ts';

const PAGE = `<!doctype html><html><head><title>Contact Margaret Ellison</title>
<meta name="description" content="Write to margaret.ellison@harwoodlyle.co.uk"></head><body><main>
<h1>Contact us</h1>
<p>Our senior partner is reachable at margaret.ellison@harwoodlyle.co.uk or on +44 20 7946 0958.</p>
<p><a href="mailto:margaret.ellison@harwoodlyle.co.uk">Email the partner</a> · <a href="/team?who=margaret.ellison%40harwoodlyle.co.uk">Team page</a></p>
<p>Office hours 09:00–17:30. Version 2.4.1 of our notice, updated 2024-03-04. Fees from £250 per hour.</p>
<pre><code>SUPPORT_EMAIL=margaret.ellison@harwoodlyle.co.uk</code></pre>
</main></body></html>`;

let site: FixtureSite;
let trawl: TestTrawl;
beforeAll(async () => {
  site = serveFixtures({ '/contact': PAGE });
  trawl = await startTrawl({ TRAWL_AUTH: 'off' });
}, 120_000);
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
}, 60_000);

const scrape = (extra: Record<string, unknown>) =>
  trawl.post('/v2/scrape', { url: site.url('/contact'), formats: ['markdown', 'html', 'links'], maxAge: 0, ...extra });

describe('redactPII on a scrape', () => {
  test('true: no email or phone left in markdown, html, links or metadata; other text unchanged', async () => {
    const plain = await scrape({});
    const res = await scrape({ redactPII: true });
    expect(res.status).toBe(200);
    const { markdown, html, links, metadata } = res.body.data;
    const all = JSON.stringify(res.body.data);
    expect(all).not.toContain('margaret.ellison@');
    expect(all).not.toContain('margaret.ellison%40');
    expect(all).not.toContain('7946 0958');
    expect(markdown).toContain('<EMAIL>');
    expect(markdown).toContain('<PHONE>');
    expect(markdown).toContain('(mailto:<EMAIL>)');
    expect(markdown).toContain('SUPPORT_EMAIL=<EMAIL>');
    expect(html).toContain('&lt;EMAIL&gt;');
    expect(links.some((l: string) => l.includes(encodeURIComponent('<EMAIL>')))).toBe(true);
    expect(metadata.title).toBe('Contact <PERSON>');
    expect(metadata.description).toBe('Write to <EMAIL>');
    // Everything that is not PII is the same text as without redaction.
    const expected = (plain.body.data.markdown as string)
      .replaceAll('margaret.ellison@harwoodlyle.co.uk', '<EMAIL>')
      .replaceAll('margaret.ellison%40harwoodlyle.co.uk', '<EMAIL>')
      .replaceAll('+44 20 7946 0958', '<PHONE>');
    expect(markdown).toBe(expected);
    expect(markdown).toContain('Version 2.4.1 of our notice, updated 2024-03-04. Fees from £250 per hour.');
  });

  test('mask, remove and an entity filter', async () => {
    const masked = await scrape({ redactPII: { replaceStyle: 'mask', entities: ['PHONE'] } });
    expect(masked.body.data.markdown).toContain('margaret.ellison@harwoodlyle.co.uk or on ****************.');
    const removed = await scrape({ redactPII: { replaceStyle: 'remove', mode: 'fast' } });
    expect(removed.body.data.markdown).toContain('reachable at  or on .');
  });

  test('an uploaded file (POST /v2/parse) is redacted the same way', async () => {
    const res = await upload(trawl, { filename: 'contact.html', contentType: 'text/html', body: PAGE }, { formats: ['markdown'], redactPII: true });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('reachable at <EMAIL> or on <PHONE>.');
    expect(JSON.stringify(res.body.data)).not.toContain('margaret.ellison@');
  });

  test('an unknown entity name or mode answers 400 naming the field', async () => {
    const bad = await scrape({ redactPII: { entities: ['EMAIL', 'SSN'] } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('redactPII');
    const mode = await scrape({ redactPII: { mode: 'paranoid' } });
    expect(mode.status).toBe(400);
    expect(mode.text).toContain('redactPII');
  });
});
