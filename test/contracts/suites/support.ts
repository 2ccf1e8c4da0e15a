/**
 * The support plugin contract (issue 21): `testSupport(plugin, cases)` checks what every diagnosis
 * rule owes core/support/ask.ts: it ignores failures of other classes (an unknown 500, a healthy
 * crawl) and minimal failure records without throwing; a diagnosis names the plugin as its class,
 * has a known confidence, a non-empty answer, JSON-plain `fixParameters`, and `validate` only with a
 * fix to validate (parameters, or an `operatorAction` or `waitMs` with no parameters). Then the plugin's own cases: a failure, and the diagnosis expected (or none).
 */
import { describe, expect, test } from 'bun:test';
import type { SupportDiagnosis, SupportFailure, SupportPlugin } from '../../../core/plugin.ts';
import { contractContext } from './context.ts';

export interface SupportCase {
  name: string;
  failure: SupportFailure;
  /** Fields the diagnosis must have; `null`: the plugin must not recognise the failure. */
  expect: Partial<SupportDiagnosis> | null;
}

/** A failed scrape record with the given error. */
export function scrapeFailure(code: string, message: string, status: number, request: Record<string, unknown> = {}): SupportFailure {
  return { id: 'f1', kind: 'scrape', url: 'http://127.0.0.1/p', request: { url: 'http://127.0.0.1/p', ...request }, error: { code, message, status } };
}

const UNRELATED: SupportFailure[] = [
  scrapeFailure('UNKNOWN_ERROR', 'something broke', 500),
  { id: 'c1', kind: 'crawl', request: {}, status: 'completed', completed: 3, pageErrors: [], robotsBlocked: [] },
];
const MINIMAL: SupportFailure[] = [
  { id: 'm1', kind: 'scrape', request: {} },
  { id: 'm2', kind: 'crawl', request: {}, error: { code: '', message: '', status: 0 } },
];

function checkShape(plugin: SupportPlugin, d: SupportDiagnosis): void {
  expect(d.class).toBe(plugin.name);
  expect(['high', 'medium', 'low']).toContain(d.confidence);
  expect(d.answer.length).toBeGreaterThan(20);
  expect(JSON.parse(JSON.stringify(d.fixParameters))).toEqual(d.fixParameters);
  // A re-run validates a parameter fix, an operator's change or a wait (then the request goes unchanged).
  if (d.validate && !d.operatorAction && d.waitMs === undefined) expect(Object.keys(d.fixParameters).length).toBeGreaterThan(0);
  if (d.operatorAction || d.waitMs !== undefined) expect(d.fixParameters).toEqual({});
  if (d.waitMs !== undefined) expect(d.waitMs).toBeGreaterThanOrEqual(0);
}

export function testSupport(plugin: SupportPlugin, cases: SupportCase[]): void {
  describe(`support plugin "${plugin.name}"`, () => {
    test('is a kebab-case support plugin', () => {
      expect(plugin.kind).toBe('support');
      expect(plugin.name).toMatch(/^[a-z][a-z0-9-]*$/);
    });

    test('ignores unrelated failures and survives minimal records', async () => {
      for (const f of UNRELATED) expect(await plugin.diagnose(f, contractContext())).toBeUndefined();
      for (const f of MINIMAL) {
        const d = await plugin.diagnose(f, contractContext());
        if (d) checkShape(plugin, d);
      }
    });

    for (const c of cases) {
      test(c.name, async () => {
        const d = await plugin.diagnose(c.failure, contractContext());
        if (c.expect === null) return expect(d).toBeUndefined();
        expect(d).toBeDefined();
        checkShape(plugin, d!);
        expect(d).toMatchObject(c.expect);
      });
    }
  });
}
