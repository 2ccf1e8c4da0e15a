/**
 * What the core reads off the format plugins' declarations (core/plugin.ts `FormatPlugin`, issue 16):
 * the default list, credits, engine captures, cacheability and the unparsed-file fallback. These
 * helpers never name a format: a new format changes them by declaring, not by an edit here.
 */
import type { EngineCapture, FormatContent, FormatPlugin } from '../plugin.ts';
import type { FormatSpec } from './options.ts';

/** Format plugins by name, as `Services.formats` holds them. */
export type FormatPlugins = ReadonlyMap<string, FormatPlugin>;

/** The formats of a request that names none: every plugin declaring `default` (interface.md: markdown). */
export function defaultFormats(plugins: FormatPlugins): string[] {
  return [...plugins.values()].filter((p) => p.default).map((p) => p.name);
}

/** Credits per page the requested formats add on top of the page's own (their `credits`). */
export function formatCredits(formats: readonly FormatSpec[], plugins: FormatPlugins): number {
  let sum = 0;
  for (const f of formats) {
    const credits = plugins.get(f.type)?.credits ?? 0;
    if (typeof credits === 'number') sum += credits;
    else {
      const { type: _type, ...options } = f;
      sum += credits(options);
    }
  }
  return sum;
}

/**
 * The default timeout of a request with these formats: `base` raised to the largest `minTimeoutMs`
 * they declare (compat.md §2.2: JSON mode to at least 60 s), ms.
 */
export function defaultTimeout(formats: readonly FormatSpec[], plugins: FormatPlugins, base: number): number {
  return Math.max(base, ...formats.map((f) => plugins.get(f.type)?.minTimeoutMs ?? 0));
}

/** What the engine must take from the live page, by format name (the formats' `capture`). */
export function formatCaptures(formats: readonly FormatSpec[], plugins: FormatPlugins): Record<string, EngineCapture> | undefined {
  let out: Record<string, EngineCapture> | undefined;
  for (const spec of formats) {
    const plugin = plugins.get(spec.type);
    if (!plugin?.capture) continue;
    const { type: _type, ...options } = spec;
    (out ??= {})[spec.type] = plugin.capture(options);
  }
  return out;
}

/** Whether any requested format holds blob URLs (the cache keeps such a document only as long as its blobs). */
export function holdsBlobs(formats: readonly FormatSpec[], plugins: FormatPlugins): boolean {
  return formats.some((f) => plugins.get(f.type)?.blobs === true);
}

/** Whether every requested format allows caching (a format with `cacheable: false` forces storeInCache off). */
export function formatsCacheable(formats: readonly FormatSpec[], plugins: FormatPlugins): boolean {
  return formats.every((f) => plugins.get(f.type)?.cacheable !== false);
}

/** The format that shows an unparsed file when no requested format does (`unparsed: 'fallback'`). */
export function unparsedFallback(formats: readonly FormatSpec[], plugins: FormatPlugins): FormatPlugin | undefined {
  if (formats.some((f) => plugins.get(f.type)?.unparsed)) return undefined;
  return [...plugins.values()].find((p) => p.unparsed === 'fallback');
}

/** What each format field holds (its plugin's `content`, default `text`), by document field name. */
export function fieldContents(plugins: FormatPlugins): ReadonlyMap<string, FormatContent> {
  const out = new Map<string, FormatContent>();
  for (const p of plugins.values()) for (const field of p.fields ?? [p.name]) out.set(field, p.content ?? 'text');
  return out;
}

/** The format whose output is the page's links (`role: 'page-links'`), which the crawl follows. */
export function pageLinksFormat(plugins: FormatPlugins): FormatPlugin | undefined {
  return [...plugins.values()].find((p) => p.role === 'page-links');
}

/**
 * The format whose output is the page's change tracking (`role: 'page-changes'`): monitors request it
 * by its name (`{ type: name, tag }`) and read `doc[name]` (core/page-versions `ChangeTracking`).
 */
export function pageChangesFormat(plugins: FormatPlugins): FormatPlugin | undefined {
  return [...plugins.values()].find((p) => p.role === 'page-changes');
}
