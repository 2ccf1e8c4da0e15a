/**
 * Contract cases of the `changeTracking` format (formats/change-tracking.ts) over an in-memory page
 * history: new → same → changed (git-diff) → removed → same (still gone) → new (back), tags kept
 * apart, json mode without a model, zero data retention, and the option checks (400s).
 */
import { expect } from 'bun:test';
import plugin from '../../../formats/change-tracking.ts';
import { testFormat } from '../suites/format.ts';
import type { PageVersion, PageVersionStore } from '../../../core/page-versions/types.ts';
import { pageChangesFormat } from '../../../core/scrape/formats.ts';
import { formatPlugins } from '../../../core/pipeline/scrape.ts';
import { Registry } from '../../../core/registry.ts';

/** A page history in memory, keyed like the database one (tag + URL). */
function memoryVersions(): PageVersionStore & { size(): number } {
  const rows = new Map<string, PageVersion>();
  return {
    async latest(url, tag) {
      return rows.get(`${tag ?? ''}\n${url}`);
    },
    async keep(url, tag, version) {
      rows.set(`${tag ?? ''}\n${url}`, version);
    },
    size: () => rows.size,
  };
}

const versions = memoryVersions();
const page = (price: string) => `<html><body><main><h1>Lamp</h1><p>Colour: Green</p><p>Price: ${price}</p></main></body></html>`;
const tracking = (doc: Record<string, unknown>) => doc.changeTracking as Record<string, any>;
const url = 'http://127.0.0.1:9/lamp';

testFormat(plugin, [
  {
    name: 'first scrape: new, no previous scrape, visible',
    page: page('10'), url, with: ['markdown'], pageVersions: versions, options: { modes: ['git-diff'] },
    expect: (doc) => {
      expect(tracking(doc)).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
      expect(doc.markdown).toContain('Price: 10');
    },
  },
  {
    name: 'same page again: same, previousScrapeAt set, no diff',
    page: page('10'), url, with: ['markdown'], pageVersions: versions, options: { modes: ['git-diff'] },
    expect: (doc) => {
      expect(tracking(doc).changeStatus).toBe('same');
      expect(Date.parse(tracking(doc).previousScrapeAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(tracking(doc).diff).toBeUndefined();
    },
  },
  {
    name: 'changed page: changed, with the unified diff of the markdown',
    page: page('12'), url, with: ['markdown'], pageVersions: versions, options: { modes: ['git-diff'] },
    expect: (doc) => {
      const t = tracking(doc);
      expect(t.changeStatus).toBe('changed');
      expect(t.diff.text).toContain('-Price: 10\n+Price: 12');
      expect(t.diff.text.startsWith('--- previous\n+++ current\n@@ ')).toBe(true);
      const changes = t.diff.json.files[0].chunks.flatMap((c: { changes: unknown[] }) => c.changes);
      expect(changes).toContainEqual(expect.objectContaining({ type: 'del', content: '-Price: 10' }));
      expect(changes).toContainEqual(expect.objectContaining({ type: 'add', content: '+Price: 12' }));
      expect(t.diff.json.files[0]).toMatchObject({ additions: 1, deletions: 1 });
    },
  },
  {
    name: 'the page answers 404: removed',
    page: '<html><body><h1>Not found</h1></body></html>', statusCode: 404, url, with: ['markdown'], pageVersions: versions, options: { modes: ['git-diff'] },
    expect: (doc) => {
      expect(tracking(doc).changeStatus).toBe('removed');
      expect(tracking(doc).diff).toBeUndefined();
    },
  },
  {
    name: 'still gone (410): same',
    page: '', statusCode: 410, url, with: ['markdown'], pageVersions: versions,
    expect: (doc) => expect(tracking(doc).changeStatus).toBe('same'),
  },
  {
    name: 'back after being gone: new',
    page: page('12'), url, with: ['markdown'], pageVersions: versions,
    expect: (doc) => expect(tracking(doc).changeStatus).toBe('new'),
  },
  {
    name: 'another tag is another history: new',
    page: page('12'), url, with: ['markdown'], pageVersions: versions, options: { tag: 'weekly' },
    expect: (doc) => expect(tracking(doc).changeStatus).toBe('new'),
  },
  {
    name: 'json mode, first scrape of its tag: new',
    page: page('14'), url, with: ['markdown'], pageVersions: versions, options: { modes: ['json'], schema: { type: 'object', properties: { colour: { type: 'string' }, price: { type: 'string' } } }, tag: 'json' },
    expect: (doc) => expect(tracking(doc).changeStatus).toBe('new'),
  },
  {
    name: 'json mode, price changed: json reports only the price',
    page: page('15'), url, with: ['markdown'], pageVersions: versions, options: { modes: ['json'], schema: { type: 'object', properties: { colour: { type: 'string' }, price: { type: 'string' } } }, tag: 'json' },
    expect: (doc) => {
      expect(tracking(doc).changeStatus).toBe('changed');
      expect(tracking(doc).json).toEqual({ price: { previous: '14', current: '15' } });
      expect(doc.warning).toMatch(/\[changeTracking json mode\] No language model is configured/);
      expect((doc.metadata as Record<string, unknown>).modelUsed).toBe(false);
    },
  },
  {
    name: 'zero data retention: compared, nothing kept, a warning says so',
    page: page('99'), url: 'http://127.0.0.1:9/zdr', with: ['markdown'], pageVersions: versions, scrape: { zeroDataRetention: true },
    expect: (doc) => {
      expect(tracking(doc).changeStatus).toBe('new');
      expect(doc.warning).toMatch(/Zero data retention/);
      expect(versions.size()).toBe(3); // default, weekly and json histories of /lamp only (before the cases below)
    },
  },
  {
    name: 'a 503 answer is compared but not kept: the version before stays',
    page: '<html><body><h1>Service unavailable</h1></body></html>', statusCode: 503, url: 'http://127.0.0.1:9/flaky', with: ['markdown'], pageVersions: versions,
    expect: async (doc) => {
      expect(tracking(doc).changeStatus).toBe('new');
      expect(doc.warning).toMatch(/answered 503: this answer was not kept/);
      expect(await versions.latest('http://127.0.0.1:9/flaky', null)).toBeUndefined();
    },
  },
  {
    name: 'redactPII: the kept markdown is the redacted one',
    page: '<main><h1>Contact</h1><p>Write to jane.doe@example.org for a quote on lamps.</p></main>', url: 'http://127.0.0.1:9/contact', with: ['markdown'], pageVersions: versions, scrape: { redactPII: true },
    expect: async () => {
      // (the document itself is redacted after the formats, by the scrape pipeline)
      const kept = await versions.latest('http://127.0.0.1:9/contact', null);
      expect(kept!.markdown).toContain('<EMAIL>');
      expect(kept!.markdown).not.toContain('jane.doe@example.org');
    },
  },
  {
    name: 'no page history in the context: new, with a warning',
    page: page('1'), with: ['markdown'],
    expect: (doc) => {
      expect(tracking(doc)).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
      expect(doc.warning).toMatch(/No page history is available here/);
    },
  },
  {
    name: 'monitors find it by its role (page-changes)',
    page: page('1'), with: ['markdown'],
    expect: async () => expect(pageChangesFormat(await formatPlugins(new Registry()))).toBe(plugin),
  },
  { name: 'without markdown in formats: 400', options: {}, invalid: /needs "markdown" in formats/ },
  { name: 'an unknown mode: 400', with: ['markdown'], options: { modes: ['word-diff'] }, invalid: /Invalid options for format "changeTracking"/ },
  { name: 'json mode without schema or prompt: 400', with: ['markdown'], options: { modes: ['json'] }, invalid: /json mode needs a "schema" or a "prompt"/ },
  { name: 'schema without json mode: 400', with: ['markdown'], options: { schema: { type: 'object' } }, invalid: /add "json" to changeTracking.modes/ },
  { name: 'not in search scrapeOptions: 400', with: ['markdown'], surface: 'search', invalid: /not available in search scrapeOptions/ },
]);
