/**
 * Chunking for model calls (issue 18 scope 1, "long pages"). Strategy: tokens are estimated as
 * ceil(chars / 4) (the usual ratio for English text with OpenAI-style tokenizers, slightly high for
 * code); a chunk's budget is the model's context minus room for the instructions, the schema and the
 * answer (`reserveTokens`). The markdown is cut at block boundaries (blank lines), a block longer
 * than the budget at line ends, then hard at the budget; chunks keep page order and never overlap.
 */

/** Estimated tokens of a text (chars / 4, rounded up). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Splits markdown into chunks that each fit `budgetTokens`.
 * @returns at least one chunk (the empty string for an empty page)
 */
export function chunkMarkdown(markdown: string, budgetTokens: number): string[] {
  const maxChars = Math.max(400, budgetTokens * 4);
  if (markdown.length <= maxChars) return [markdown];
  const pieces: string[] = [];
  for (const block of markdown.split(/\n{2,}/)) {
    if (block.length <= maxChars) pieces.push(block);
    else for (const line of block.split('\n')) for (let i = 0; i < line.length || i === 0; i += maxChars) pieces.push(line.slice(i, i + maxChars));
  }
  const chunks: string[] = [];
  let cur = '';
  for (const p of pieces) {
    if (cur && cur.length + p.length + 2 > maxChars) {
      chunks.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}\n\n${p}` : p;
  }
  if (cur) chunks.push(cur);
  return chunks;
}

/** The chunk budget of a model: its context minus `reserveTokens` (instructions, schema, answer), at least 512. */
export function chunkBudget(contextTokens: number, reserveTokens: number): number {
  return Math.max(512, contextTokens - reserveTokens);
}
