/**
 * The model paths on long pages (issue 18 scope 1 "long pages", with a scripted `LanguageModel` in
 * the plugin context): summary is map-reduced over chunks that fit the model's context; question
 * sends the chunks most relevant to it; every call names its purpose and carries the job's signal.
 */
import { describe, expect, test } from 'bun:test';
import { buildWith } from './build.ts';
import { scriptedModel } from './scripted-model.ts';
import { estimateTokens } from '../../core/text/chunks.ts';

const filler = (i: number) => `<p>Section ${i} talks about gardening soil and compost in general terms. ${'Plants grow in soil. '.repeat(30)}</p>`;
const longPage = `<main>${Array.from({ length: 30 }, (_, i) => filler(i)).join('')}<p>The lighthouse keeper retired in 1987 after forty years.</p></main>`;

describe('model paths on long pages', () => {
  test('summary: one call per chunk, each within the context, then one reduce call', async () => {
    const model = scriptedModel((req, i) => (String(req.messages[0].content).startsWith('These are summaries') ? 'Final summary.' : `part ${i}`), 3_000);
    const doc = await buildWith(longPage, ['summary'], { model });
    expect(doc.summary).toBe('Final summary.');
    expect(model.calls.length).toBeGreaterThan(2);
    for (const c of model.calls) {
      expect(c.purpose).toBe('format:summary');
      expect(c.signal).toBeDefined();
      expect(estimateTokens(c.messages.map((m) => m.content ?? '').join(''))).toBeLessThanOrEqual(3_000);
    }
    const reduce = model.calls.at(-1)!;
    expect(reduce.messages[1].content).toContain('part 0');
    expect((doc.metadata as Record<string, unknown>).modelUsed).toBe(true);
  });

  test('question: the relevant chunk is sent, within the context', async () => {
    const model = scriptedModel(() => '1987', 3_000);
    const doc = await buildWith(longPage, [{ type: 'question', question: 'When did the lighthouse keeper retire?' }], { model });
    expect(doc.answer).toBe('1987');
    expect(model.calls).toHaveLength(1);
    const sent = model.calls[0].messages[1].content!;
    expect(sent).toContain('The lighthouse keeper retired in 1987');
    expect(estimateTokens(sent)).toBeLessThanOrEqual(3_000);
  });

  test('a model error is the scrape error (no fallback that hides it)', async () => {
    const failing = scriptedModel(() => {
      throw Object.assign(new Error('upstream said 500'), { status: 502 });
    });
    await expect(buildWith(longPage, ['summary'], { model: failing })).rejects.toThrow('upstream said 500');
  });
});
