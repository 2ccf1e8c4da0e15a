/**
 * `onlyCleanContent` (interface.md: an extra pass over the markdown that strips residual
 * boilerplate), applied by the markdown format. With a model: one call that returns the markdown
 * without boilerplate; when the page would not fit the model (its markdown, twice, for the input and
 * the answer, plus room for instructions) the original is kept with a warning. With no model: the
 * deterministic cleaner of core/text/clean.ts, with a warning. Zero data retention is refused
 * earlier (core/pipeline/scrape-options.ts).
 */
import type { PluginContext } from '../../core/plugin.ts';
import { cleanMarkdown } from '../../core/text/clean.ts';
import { estimateTokens } from '../../core/text/chunks.ts';
import { noModelWarning, RESERVE_TOKENS } from './common.ts';

/** The cleaned markdown, and a warning when the model pass did not run. */
export async function cleanContent(markdown: string, ctx: PluginContext): Promise<{ markdown: string; warning?: string }> {
  const model = ctx.model;
  if (!model) {
    return { markdown: cleanMarkdown(markdown).markdown, warning: noModelWarning('onlyCleanContent', 'boilerplate lines (cookie notices, share bars, repeated navigation) were removed by rules') };
  }
  const tokens = estimateTokens(markdown);
  if (tokens * 2 + RESERVE_TOKENS > model.contextTokens) {
    return { markdown, warning: `[onlyCleanContent] The markdown (about ${tokens} tokens) exceeds what the model can clean (${model.contextTokens} tokens of context); the original markdown is kept.` };
  }
  const { message } = await model.chat({
    purpose: 'option:onlyCleanContent', signal: ctx.signal, maxTokens: tokens + 256,
    messages: [
      { role: 'system', content: 'Remove residual boilerplate (navigation, cookie notices, share buttons, footers, ads) from the markdown the user gives. Keep all main content exactly as written. Answer with the cleaned markdown only.' },
      { role: 'user', content: markdown },
    ],
  });
  const cleaned = (message.content ?? '').trim();
  return cleaned ? { markdown: cleaned } : { markdown, warning: '[onlyCleanContent] The model returned nothing; the original markdown is kept.' };
}
