/**
 * The `branding` format in a real browser (Chromium) on fixture pages whose styles are known: exact
 * hex colors, font families, sizes and components, a light and a dark page, the same answer twice.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from '../../core/registry.ts';
import { runScrape } from '../../core/pipeline/scrape.ts';
import { resolveScrapeOptions } from '../../core/pipeline/scrape-options.ts';
import { formatPlugins } from '../../core/pipeline/scrape.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { contractConfig, contractContext } from '../contracts/suites/context.ts';

const dir = join(import.meta.dir, '../fixtures/branding');
const registry = new Registry();
let site: FixtureSite;

beforeAll(() => {
  site = serveFixtures({ '/light': readFileSync(join(dir, 'light.html'), 'utf8'), '/dark': readFileSync(join(dir, 'dark.html'), 'utf8') });
});
afterAll(async () => {
  site.stop();
  for (const e of await registry.loaded('engine')) await e.close?.();
});

async function branding(path: string): Promise<Record<string, any>> {
  const options = resolveScrapeOptions({ formats: ['branding'], timeout: 60_000, blockAds: false }, await formatPlugins(registry));
  const ctx = contractContext();
  const doc = await runScrape({ scrapeId: 'b', url: site.url(path), sourceURL: site.url(path), options }, { config: contractConfig(), log: ctx.log, registry, blobs: ctx.blobs });
  expect(doc.metadata.statusCode).toBe(200);
  return doc.branding as Record<string, any>;
}

describe('branding', () => {
  test('a light page: colors, fonts, typography, components, images', async () => {
    const b = await branding('/light');
    expect(b.colorScheme).toBe('light');
    expect(b.colors).toEqual({
      primary: '#ff5a1f', secondary: '#0a66c2', accent: null, background: '#ffffff', textPrimary: '#1a1a2e', textSecondary: '#6b7280',
      link: '#0a66c2', success: '#15803d', warning: '#b45309', error: '#b91c1c',
    });
    expect(b.typography).toEqual({ fontFamilies: { primary: 'Inter', heading: 'Georgia', code: 'Fira Code' }, fontSizes: { body: '16px', h1: '40px', h2: '28px', h3: '20px' } });
    // Buttons keep the browser's own font unless styled (Chromium: Arial).
    expect(b.fonts).toEqual([{ family: 'Inter' }, { family: 'Georgia' }, { family: 'Fira Code' }, { family: 'Arial' }]);
    expect(b.components.buttonPrimary).toEqual({ background: '#ff5a1f', textColor: '#ffffff', borderRadius: '6px' });
    expect(b.components.buttonSecondary).toEqual({ background: null, borderColor: '#0a66c2', textColor: '#0a66c2', borderRadius: '6px' });
    expect(b.components.input).toEqual({ background: '#f9fafb', borderColor: '#d1d5db', textColor: '#111827', borderRadius: '4px' });
    expect(b.spacing).toEqual({ baseUnit: 8, borderRadius: '6px' });
    expect(b.images).toEqual({ logo: site.url('/logo.svg'), favicon: site.url('/favicon.png'), ogImage: site.url('/og.png') });
    expect(b.logo).toBe(site.url('/logo.svg'));
  }, 120_000);

  test('a dark page: custom properties win, html background, color scheme dark; deterministic', async () => {
    const [b, again] = [await branding('/dark'), await branding('/dark')];
    expect(again).toEqual(b);
    expect(b.colorScheme).toBe('dark');
    expect(b.colors).toMatchObject({ primary: '#7c3aed', accent: '#22d3ee', background: '#0f172a', textPrimary: '#e2e8f0', textSecondary: '#94a3b8', link: '#38bdf8' });
    expect(b.typography.fontFamilies).toEqual({ primary: 'IBM Plex Sans', heading: 'IBM Plex Serif', code: 'JetBrains Mono' });
    expect(b.typography.fontSizes.body).toBe('18px');
    expect(b.components.buttonPrimary).toEqual({ background: '#7c3aed', textColor: '#ffffff', borderRadius: '12px' });
    expect(b.images.favicon).toBe(site.url('/favicon.ico'));
    expect(b.logo).toBeNull();
  }, 120_000);
});
