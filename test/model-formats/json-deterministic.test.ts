/**
 * The deterministic `json` answer on pages whose facts are known (issue 18 "done when"): over the
 * fixture pages it fills at least 80% of the stated fields correctly and invents none (precision
 * 100%: every filled field is a stated one, with the stated value). Runs the real pipeline step
 * (`buildDocument`) with no model configured.
 */
import { describe, expect, test } from 'bun:test';
import { KNOWN_PAGES } from './fixtures.ts';
import { buildWith } from './build.ts';

describe('deterministic json on known pages', () => {
  test('recall >= 80%, precision 100%, warning and metadata set', async () => {
    let stated = 0;
    let correct = 0;
    let filled = 0;
    const wrong: string[] = [];
    for (const p of KNOWN_PAGES) {
      const doc = await buildWith(p.html, [{ type: 'json', schema: p.schema }]);
      const json = doc.json as Record<string, unknown>;
      expect(doc.warning).toMatch(/No language model is configured/);
      expect((doc.metadata as Record<string, unknown>).modelUsed).toBe(false);
      expect(Object.keys(json).sort()).toEqual(Object.keys((p.schema as { properties: object }).properties).sort());
      for (const [k, v] of Object.entries(json)) {
        if (v === null) continue;
        filled++;
        if (JSON.stringify(v) === JSON.stringify(p.stated[k])) correct++;
        else wrong.push(`${p.name}: ${k} = ${JSON.stringify(v)} (stated: ${JSON.stringify(p.stated[k] ?? null)})`);
      }
      stated += Object.keys(p.stated).length;
      expect(Object.keys((doc.metadata as { jsonFilled: object }).jsonFilled).sort()).toEqual(Object.entries(json).filter(([, v]) => v !== null).map(([k]) => k).sort());
    }
    const recall = correct / stated;
    const precision = filled ? correct / filled : 1;
    console.log(`deterministic json: ${correct}/${stated} stated fields filled correctly (recall ${(recall * 100).toFixed(1)}%), ${filled} filled (precision ${(precision * 100).toFixed(1)}%)`);
    expect(wrong).toEqual([]);
    expect(precision).toBe(1);
    expect(recall).toBeGreaterThanOrEqual(0.8);
  }, 60_000);
});
