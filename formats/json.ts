/**
 * The `json` format (compat.md §2.1): `{type: 'json', schema?, prompt?}` (object form only; the SDK
 * sends zod schemas converted to JSON Schema) -> `json`. +4 credits per page; the default timeout is
 * at least 60 s (compat.md §2.2). A schema that is not valid JSON Schema (ajv) is a 400 naming it.
 * - With a model (`PluginContext.model`): chunked extraction merged field by field (formats/json/model.ts).
 * - With none (the default): schema-guided extraction from what the page states (JSON-LD, microdata,
 *   meta tags, tables, definition lists, labelled fields; formats/json/facts.ts and match.ts). A
 *   field the page does not state is null. `metadata.jsonFilled` maps each filled schema path to its
 *   source, `metadata.jsonMissing` lists the others, `metadata.modelUsed` is false and `warning` says
 *   no model is configured. A prompt without a schema gives the page's main item as stated.
 * - `checkPromptInjection: true`: the page is scanned for instructions aimed at a model
 *   (formats/json/injection.ts); `metadata.promptInjection` reports the scan, and a page that carries
 *   one is never sent to the model (the stated-facts path answers, with a warning).
 */
import { Type, type Static } from '@sinclair/typebox';
import Ajv from 'ajv';
import { defineFormat } from '../core/plugin.ts';
import { TrawlError } from '../core/errors.ts';
import { modelMetadata, noModelWarning, pageMarkdown } from './model/common.ts';
import { pageFacts, statedFacts } from './json/facts.ts';
import { fillSchema } from './json/match.ts';
import { modelJson } from './json/model.ts';
import { scanForInjection, type InjectionScan } from './json/injection.ts';

const Options = Type.Object(
  {
    prompt: Type.Optional(Type.String({ maxLength: 10_000 })),
    schema: Type.Optional(Type.Object({}, { additionalProperties: true })),
    checkPromptInjection: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
type Options = Static<typeof Options>;

let ajv: Ajv | undefined;

/** @throws TrawlError BAD_REQUEST when neither prompt nor schema is given, or the schema is not valid JSON Schema */
function validate(options: Options): void {
  if (!options.prompt && !options.schema) throw new TrawlError('BAD_REQUEST', 'Format "json" needs a "prompt" or a "schema" (or both).');
  if (!options.schema) return;
  ajv ??= new Ajv({ strict: false, allErrors: false });
  try {
    ajv.compile(options.schema);
  } catch (e) {
    throw new TrawlError('BAD_REQUEST', `json.schema is not a valid JSON Schema: ${(e as Error).message}`);
  }
}

export default defineFormat<Options>({
  name: 'json',
  role: 'structured-data',
  stringForm: false,
  options: Options,
  credits: 4,
  minTimeoutMs: 60_000,
  needs: ['markdown'],
  validate,
  async produce(input, options, ctx) {
    const markdown = pageMarkdown(input);
    const scan: InjectionScan | undefined = options.checkPromptInjection ? scanForInjection(markdown) : undefined;
    const injection = scan ? { promptInjection: scan } : {};
    if (ctx.model && !scan?.detected) {
      const schema = options.schema ?? { type: 'object', additionalProperties: true };
      const { value, chunks } = await modelJson(ctx.model, ctx, markdown, schema, options.prompt);
      return { json: value, metadata: modelMetadata(ctx, { jsonChunks: chunks, ...injection }) };
    }
    const facts = pageFacts(input.rawHtml() ?? input.parsed.html ?? '', markdown);
    const warning = scan?.detected
      ? `[json] The page carries instructions aimed at a language model (${scan.matches.map((m) => m.pattern).join(', ')}): ${ctx.model ? 'it was not sent to the model; ' : ''}the fields were filled only from what the page states.`
      : noModelWarning('json', 'the fields were filled only from what the page states (structured data, meta tags, tables, labelled fields); fields it does not state are null');
    const used = { modelUsed: false };
    if (!options.schema || !(options.schema as { properties?: unknown }).properties) {
      return { json: statedFacts(facts), metadata: { ...modelMetadata(ctx, { jsonFilled: {}, jsonMissing: [], ...injection }), ...used }, warning };
    }
    const { value, report } = fillSchema(options.schema, facts);
    return { json: value, metadata: { ...modelMetadata(ctx, { jsonFilled: report.filled, jsonMissing: report.missing, ...injection }), ...used }, warning };
  },
});
