/**
 * The declaration checks every plugin passes, built-in or loaded from `TRAWL_PLUGINS_DIR`: the
 * contract suites (test/contracts/suites) assert them for built-in plugins, and the external plugin
 * loader (core/external-plugins.ts) runs them before it registers a plugin, so a plugin that would
 * fail its contract stops startup instead of failing requests. Checks here read declarations and call
 * only side-effect-free declared functions (`magic`, `capture`); behaviour is the suites' business.
 */
import { Kind } from '@sinclair/typebox';
import { ALL_FORMAT_SURFACES, type EngineFeature, type PluginKind } from './plugin.ts';

/** Every plugin kind, as the registry's table names them. */
export const PLUGIN_KINDS: readonly PluginKind[] = ['format', 'parser', 'engine', 'proxy', 'search-provider', 'support', 'threat-list', 'llm'];

/** Every engine feature (core/plugin.ts `EngineFeature`). */
export const ENGINE_FEATURES: readonly EngineFeature[] = ['http', 'js', 'actions', 'screenshot', 'pdf-print', 'mobile', 'wait', 'location', 'profile'];

/** Methods each kind must have (functions). */
const METHODS: Record<PluginKind, string[]> = {
  format: ['produce'],
  parser: ['parse'],
  engine: ['fetch'],
  proxy: ['route'],
  'search-provider': ['configured', 'search'],
  support: ['diagnose'],
  'threat-list': ['configured', 'load'],
  llm: ['configured', 'open'],
};

/** Names of other plugins the checks resolve references against (`needs` of formats). */
export interface KnownPlugins {
  formats: ReadonlySet<string>;
}

/**
 * What is wrong with a plugin's declarations, as sentences naming the field; `[]` when nothing is.
 * @param value the plugin object (a module's default export), of any shape
 * @param known formats registered next to it (for `needs`)
 */
export function pluginProblems(value: unknown, known: KnownPlugins): string[] {
  if (!value || typeof value !== 'object') return [`the default export is ${value === null ? 'null' : typeof value}, not a plugin object (make it with a define* helper of trawl/plugin)`];
  const p = value as Record<string, any>;
  if (!PLUGIN_KINDS.includes(p.kind)) return [`kind ${JSON.stringify(p.kind)} is not one of ${PLUGIN_KINDS.join(', ')} (make the plugin with a define* helper of trawl/plugin)`];
  const kind = p.kind as PluginKind;
  const problems: string[] = [];
  if (typeof p.name !== 'string' || !/^[a-z][A-Za-z0-9-]*$/.test(p.name)) problems.push(`name ${JSON.stringify(p.name)} must start with a lower-case letter and hold only letters, digits and '-'`);
  for (const m of METHODS[kind]) if (typeof p[m] !== 'function') problems.push(`${m} must be a function`);
  if (kind === 'format') problems.push(...formatProblems(p, known));
  if (kind === 'parser') problems.push(...parserProblems(p));
  if (kind === 'engine') {
    if (!Array.isArray(p.features) || p.features.length === 0) problems.push('features must list at least one engine feature');
    else for (const f of p.features) if (!ENGINE_FEATURES.includes(f)) problems.push(`features: ${JSON.stringify(f)} is not one of ${ENGINE_FEATURES.join(', ')}`);
    if (typeof p.cost !== 'number' || !(p.cost > 0)) problems.push('cost must be a number above 0');
  }
  if (kind === 'search-provider') for (const s of p.sources ?? []) if (!['web', 'news', 'images'].includes(s)) problems.push(`sources: ${JSON.stringify(s)} is not web, news or images`);
  return problems;
}

function formatProblems(p: Record<string, any>, known: KnownPlugins): string[] {
  const out: string[] = [];
  // Format names are wire names and document fields: camelCase, as the built-in ones.
  if (typeof p.name === 'string' && !/^[a-z][A-Za-z0-9]*$/.test(p.name)) out.push(`name ${JSON.stringify(p.name)} must be camelCase (letters and digits): it is a request's format name and a document field`);
  const fields = p.fields ?? [p.name];
  if (!Array.isArray(fields) || fields.some((f) => typeof f !== 'string' || !f)) out.push('fields must be a list of field names');
  else if (fields.includes('metadata') || fields.includes('warning')) out.push('fields must not include metadata or warning (return them as the metadata / warning keys instead)');
  if (p.credits !== undefined && typeof p.credits !== 'function' && !(Number.isInteger(p.credits) && p.credits >= 0)) {
    out.push('credits must be a whole number of 0 or more');
  }
  if (p.minTimeoutMs !== undefined && !(Number.isInteger(p.minTimeoutMs) && p.minTimeoutMs > 0)) out.push('minTimeoutMs must be a whole number of ms above 0');
  for (const s of p.allowedIn ?? []) if (!ALL_FORMAT_SURFACES.includes(s)) out.push(`allowedIn: ${JSON.stringify(s)} is not one of ${ALL_FORMAT_SURFACES.join(', ')}`);
  if (p.options !== undefined && p.options?.[Kind] !== 'Object') out.push('options must be a TypeBox Type.Object schema');
  for (const n of p.needs ?? []) if (!known.formats.has(n)) out.push(`needs: no format named ${JSON.stringify(n)} is registered`);
  for (const f of p.requires ?? []) if (!ENGINE_FEATURES.includes(f)) out.push(`requires: ${JSON.stringify(f)} is not one of ${ENGINE_FEATURES.join(', ')}`);
  if (p.unparsed !== undefined && !['shows', 'fallback'].includes(p.unparsed)) out.push('unparsed must be shows or fallback');
  if (p.content !== undefined && !['text', 'markup', 'urls', 'binary'].includes(p.content)) out.push('content must be text, markup, urls or binary');
  for (const m of ['capture', 'validate']) if (p[m] !== undefined && typeof p[m] !== 'function') out.push(`${m} must be a function`);
  if (typeof p.capture === 'function') {
    let capture: { kind?: string } | undefined;
    try {
      capture = p.capture({});
    } catch (e) {
      out.push(`capture({}) threw: ${(e as Error).message}`);
    }
    if (capture) {
      const feature = capture.kind === 'screenshot' ? 'screenshot' : 'js';
      if (!(p.requires ?? []).includes(feature)) out.push(`a ${capture.kind} capture needs requires: ['${feature}'] so an engine that can answer it is chosen`);
      if (p.pure === true) out.push('a format with a capture is not pure (captures come from the engine)');
    }
  }
  if (p.blobs && p.pure === true) out.push('a format holding blobs is not pure (content threads have no blob store)');
  return out;
}

function parserProblems(p: Record<string, any>): string[] {
  const out: string[] = [];
  const a = p.accepts;
  if (!a || !Array.isArray(a.mime) || !Array.isArray(a.ext)) return ['accepts must be { mime: string[], ext: string[], magic? }'];
  if (a.mime.length + a.ext.length === 0) out.push('accepts must name at least one content type or extension');
  for (const m of a.mime) if (typeof m !== 'string' || m !== m.toLowerCase() || !m.includes('/')) out.push(`accepts.mime: ${JSON.stringify(m)} must be a lower-case content type`);
  for (const e of a.ext) if (typeof e !== 'string' || !/^\.[a-z0-9]+$/.test(e)) out.push(`accepts.ext: ${JSON.stringify(e)} must be a lower-case extension with its dot (".ics")`);
  if (a.magic !== undefined) {
    if (typeof a.magic !== 'function') out.push('accepts.magic must be a function');
    else {
      for (const bytes of [new Uint8Array(0), new Uint8Array([0x25]), new TextEncoder().encode('<html>')]) {
        try {
          a.magic(bytes);
        } catch (e) {
          out.push(`accepts.magic threw on ${bytes.length} bytes of input: ${(e as Error).message}`);
          break;
        }
      }
    }
  }
  if (p.optIn !== undefined && typeof p.optIn !== 'boolean') out.push('optIn must be true or false');
  return out;
}
