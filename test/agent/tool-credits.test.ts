/**
 * The agent's extract tool estimates what a call costs from the structured-data format's own declared
 * credits (FormatPlugin.credits), not from a number of its own: a page (1) plus the format's credits,
 * per URL, capped at the tool's URL limit.
 */
import { describe, expect, test } from 'bun:test';
import { BUILTIN_PLUGINS } from '../../core/registry.ts';
import { toolsFor } from '../../core/agent/tools.ts';
import type { FormatPlugin } from '../../core/plugin.ts';
import type { Services } from '../../core/services.ts';
import type { AgentRequest } from '../../core/agent/options.ts';

async function builtinFormats(): Promise<Map<string, FormatPlugin>> {
  const out = new Map<string, FormatPlugin>();
  for (const [name, load] of Object.entries(BUILTIN_PLUGINS.format)) out.set(name, (await load()).default as FormatPlugin);
  return out;
}

const request = { prompt: 'find prices', maxCredits: 100 } as unknown as AgentRequest;
const extract = toolsFor(request).get('extract')!;

describe('agent extract tool estimate', () => {
  test('a page plus the built-in structured-data format credits, per URL', async () => {
    const formats = await builtinFormats();
    const services = { formats } as unknown as Services;
    const json = [...formats.values()].find((p) => p.role === 'structured-data')!;
    expect(typeof json.credits).toBe('number');
    const perPage = 1 + (json.credits as number);
    expect(extract.minCredits({ urls: ['https://a.test/1', 'https://a.test/2', 'https://a.test/3'] }, request, services)).toBe(3 * perPage);
    expect(extract.minCredits({ urls: 'https://a.test/1' }, request, services)).toBe(perPage);
  });

  test('follows the declaration of whichever format holds the role', () => {
    const custom = { name: 'facts', role: 'structured-data', credits: 7 } as unknown as FormatPlugin;
    const services = { formats: new Map([['facts', custom]]) } as unknown as Services;
    expect(extract.minCredits({ urls: ['https://a.test/1', 'https://a.test/2'] }, request, services)).toBe(16);
    const none = { formats: new Map() } as unknown as Services;
    expect(extract.minCredits({ urls: ['https://a.test/1'] }, request, none)).toBe(1);
  });
});
