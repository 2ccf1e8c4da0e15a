/**
 * The `changeTracking` format (compat.md §2.1; issue 20 scope 1): `{type: 'changeTracking', modes?,
 * schema?, prompt?, tag?}` -> `changeTracking {previousScrapeAt, changeStatus, visibility, diff?, json?}`.
 * The page is compared with the latest version kept for the same team, URL and `tag` (null: the default
 * history; each tag is its own) in the database (`PluginContext.pageVersions`, core/page-versions), and
 * this scrape becomes the kept version.
 * - `changeStatus`: `new` (nothing kept, or the page came back after being gone), `same`, `changed`
 *   (markdown differs), `removed` (the page answers 404/410 after a live version; still gone: `same`).
 * - `modes` (default none: the status only): `git-diff` adds `diff {text, json}`, a unified diff of
 *   the markdown (jsdiff); `json` runs the json format's answer with `schema`/`prompt` (the model when
 *   one is configured, else the deterministic path, with its warning) and adds `json`, the fields that
 *   changed `{field: {previous, current}}`. Both only when the status is `changed`. JSON mode costs
 *   +4 credits, as the json format.
 * - Requests must also name `markdown` (the reference's rule); not in search `scrapeOptions`
 *   (interface.md Rules 4) nor parse uploads. Never cached (the status depends on history).
 * - Zero data retention: compared, nothing kept, and `warning` says so. A 5xx/429 answer keeps the
 *   version before it (a transient error is no new version), with a warning.
 * - `visibility` is `visible`: the URL was requested or linked (core/page-versions `recordPageGone`
 *   takes `hidden` for URLs a monitor knows only from history).
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineFormat, type FormatInput, type PluginContext } from '../core/plugin.ts';
import { TrawlError } from '../core/errors.ts';
import { changeStatusOf, pageGone, type ChangeTracking } from '../core/page-versions/index.ts';
import { keepsNoData } from '../core/privacy/retention.ts';
import { resolveRedactOptions } from '../core/privacy/types.ts';
import { redactText } from '../core/privacy/redact.ts';
import jsonFormat from './json.ts';
import { pageMarkdown } from './model/common.ts';
import { gitDiff, jsonChanges } from './change-tracking/compare.ts';

const Mode = Type.Union([Type.Literal('git-diff'), Type.Literal('json')]);
const Options = Type.Object(
  {
    modes: Type.Optional(Type.Array(Mode, { maxItems: 2 })),
    schema: Type.Optional(Type.Object({}, { additionalProperties: true })),
    prompt: Type.Optional(Type.String({ maxLength: 10_000 })),
    tag: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
  },
  { additionalProperties: false },
);
type Options = Static<typeof Options>;

/** @throws TrawlError BAD_REQUEST when json mode has neither schema nor prompt, or they come without json mode, or the schema is invalid */
function validate(options: Options): void {
  const json = options.modes?.includes('json') ?? false;
  if (!json && (options.schema || options.prompt)) {
    throw new TrawlError('BAD_REQUEST', 'changeTracking "schema" and "prompt" are for the json mode: add "json" to changeTracking.modes, or remove them.');
  }
  if (json && !options.schema && !options.prompt) {
    throw new TrawlError('BAD_REQUEST', 'changeTracking json mode needs a "schema" or a "prompt" (or both): the fields to compare.');
  }
  if (json) {
    try {
      jsonFormat.validate?.({ schema: options.schema, prompt: options.prompt });
    } catch (e) {
      throw new TrawlError('BAD_REQUEST', (e as Error).message.replace(/^json\./, 'changeTracking.'));
    }
  }
}

/** The json format's answer for the tracking's schema/prompt, and its warning renamed for this format. */
async function jsonAnswer(input: FormatInput, options: Options, ctx: PluginContext): Promise<{ value: unknown; warning?: string; modelUsed: boolean }> {
  const out = await jsonFormat.produce(input, { schema: options.schema, prompt: options.prompt }, ctx);
  const warning = typeof out.warning === 'string' ? out.warning.replace(/^\[json\]/, '[changeTracking json mode]') : undefined;
  const modelUsed = (out.metadata as { modelUsed?: unknown } | undefined)?.modelUsed === true;
  return { value: out.json ?? null, warning, modelUsed };
}

/** The page's markdown as compared and kept: redacted first when the request redacts PII (nothing unredacted is kept). */
function comparedMarkdown(input: FormatInput): string {
  const markdown = pageMarkdown(input);
  const redact = resolveRedactOptions(input.options.redactPII);
  return redact ? redactText(markdown, redact) : markdown;
}

export default defineFormat<Options>({
  name: 'changeTracking',
  options: Options,
  credits: (options) => (options.modes?.includes('json') ? 4 : 0),
  minTimeoutMs: 60_000,
  needs: ['markdown'],
  withFormats: ['markdown'],
  allowedIn: ['scrape', 'batch', 'crawl', 'v1'],
  cacheable: false,
  role: 'page-changes',
  validate,
  async produce(input, options, ctx) {
    const modes = new Set(options.modes ?? []);
    const tag = options.tag ?? null;
    const status = input.response.statusCode;
    const gone = pageGone(status);
    const warnings: string[] = [];
    const markdown = gone ? null : comparedMarkdown(input);
    let json: unknown = null;
    // docs/model-formats.md: `metadata.modelUsed` says which way a model format answered.
    let metadata: Record<string, unknown> | undefined;
    if (modes.has('json') && !gone) {
      const answer = await jsonAnswer(input, options, ctx);
      json = answer.value;
      metadata = { modelUsed: answer.modelUsed };
      if (answer.warning) warnings.push(answer.warning);
    }
    const store = ctx.pageVersions;
    if (!store) {
      warnings.push('[changeTracking] No page history is available here: the page is reported as new and nothing is kept.');
      return { changeTracking: { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' } satisfies ChangeTracking, ...(metadata ? { metadata } : {}), warning: warnings.join(' ') };
    }
    const url = input.sourceURL;
    const previous = await store.latest(url, tag);
    const changed = !!previous && !previous.gone && !gone && previous.markdown !== markdown;
    const tracking: ChangeTracking = {
      previousScrapeAt: previous ? previous.scrapedAt.toISOString() : null,
      changeStatus: changeStatusOf(previous, { gone, changed }),
      visibility: 'visible',
    };
    if (tracking.changeStatus === 'changed') {
      if (modes.has('git-diff')) tracking.diff = gitDiff(previous!.markdown ?? '', markdown ?? '');
      if (modes.has('json')) {
        if (previous!.json === null) warnings.push('[changeTracking] The kept version has no json answer (it was scraped without the json mode): its fields are compared as null.');
        tracking.json = jsonChanges(previous!.json, json);
      }
    }
    if (keepsNoData(input.options)) {
      warnings.push('[changeTracking] Zero data retention: this version was compared but not kept; the next scrape compares against the last version kept without zero data retention.');
    } else if (status >= 500 || status === 429) {
      warnings.push(`[changeTracking] The page answered ${status}: this answer was not kept as a version (the kept one stays for the next comparison).`);
    } else {
      await store.keep(url, tag, { scrapedAt: new Date(), gone, markdown, json: modes.has('json') ? json : null });
    }
    return { changeTracking: tracking, ...(metadata ? { metadata } : {}), ...(warnings.length ? { warning: warnings.join(' ') } : {}) };
  },
});
