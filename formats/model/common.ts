/**
 * What the model formats (json, summary, question, query, highlights; issue 18) share: the page's
 * markdown as they read it, and how an answer says whether a model made it.
 *
 * `metadata.modelUsed` (boolean) tells which way the document's model formats answered: `true` when
 * the configured model (`PluginContext.model`) answered, `false` when no model is configured and the
 * deterministic path answered (then `warning` says so too). Absent when no model format was requested.
 */
import type { FormatInput, PluginContext } from '../../core/plugin.ts';
import { nodesToMarkdown } from '../markdown/render.ts';

/** The page's markdown: the `markdown` format's output (needs), else the parser's, else converted here. */
export function pageMarkdown(input: FormatInput): string {
  const md = input.outputs.markdown;
  if (typeof md === 'string') return md;
  if (typeof input.parsed.markdown === 'string') return input.parsed.markdown;
  return nodesToMarkdown(input.cleanedNodes() ?? [], { removeBase64Images: true });
}

/** The warning of a format that answered without a model. */
export function noModelWarning(format: string, how: string): string {
  return `[${format}] No language model is configured (OPENAI_BASE_URL / MODEL_NAME): ${how}.`;
}

/** The metadata entry saying whether a model answered (see the header). */
export function modelMetadata(ctx: PluginContext, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { modelUsed: ctx.model !== undefined, ...extra };
}

/** Room kept for instructions and the answer when the page is cut into chunks, tokens. */
export const RESERVE_TOKENS = 2_048;
