/**
 * Choosing plugins for one scrape: the engine whose declared features cover what the request needs
 * (cheapest first), and the parser that accepts the fetched content (magic bytes, then content type,
 * then file extension).
 */
import type { EngineFeature, EnginePlugin, FormatPlugin, ParserPlugin } from '../plugin.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import { TrawlError } from '../errors.ts';

/** Engine features a request needs, from its formats (`requires`) and options. */
export function requiredFeatures(options: ScrapeOptions, formats: Map<string, FormatPlugin>): Set<EngineFeature> {
  const need = new Set<EngineFeature>(['http']);
  for (const f of options.formats) for (const r of formats.get(f.type)?.requires ?? []) need.add(r);
  if (options.actions?.length) need.add('actions');
  if (options.actions?.some((a) => a.type === 'pdf')) need.add('pdf-print');
  if (options.actions?.some((a) => a.type === 'screenshot')) need.add('screenshot');
  if (options.mobile) need.add('mobile');
  if (options.waitFor > 0) need.add('wait');
  if (options.profile) need.add('profile');
  return need;
}

/**
 * The cheapest engine covering `need`, or the reason none does.
 * @throws TrawlError SCRAPE_ACTIONS_NOT_SUPPORTED (actions without a browser) or BACKEND_UNAVAILABLE.
 */
export function selectEngine(engines: readonly EnginePlugin[], need: Set<EngineFeature>): EnginePlugin {
  const fit = engines.filter((e) => [...need].every((f) => e.features.includes(f))).sort((a, b) => a.cost - b.cost);
  if (fit[0]) return fit[0];
  const missing = [...need].filter((f) => !engines.some((e) => e.features.includes(f)));
  if (need.has('actions')) {
    throw new TrawlError('SCRAPE_ACTIONS_NOT_SUPPORTED', 'Actions need the browser engine, which is not available on this instance.');
  }
  throw new TrawlError('BACKEND_UNAVAILABLE', `No engine on this instance supports: ${missing.join(', ')}. Install Chromium (CHROMIUM_PATH) for browser features.`);
}

function extOf(url: string): string {
  try {
    const path = new URL(url).pathname.toLowerCase();
    const dot = path.lastIndexOf('.');
    return dot > path.lastIndexOf('/') ? path.slice(dot) : '';
  } catch {
    return '';
  }
}

/**
 * The parser for fetched content: a magic-bytes match wins (servers mislabel PDFs), then the content
 * type, then the URL's extension. Returns undefined when nothing accepts the content.
 */
export function selectParser(
  parsers: readonly ParserPlugin[],
  content: { bytes: Uint8Array; contentType: string; url: string; filename?: string },
): ParserPlugin | undefined {
  const byMagic = parsers.find((p) => p.accepts.magic?.(content.bytes));
  if (byMagic) return byMagic;
  const byMime = parsers.find((p) => p.accepts.mime.includes(content.contentType));
  if (byMime) return byMime;
  const ext = content.filename ? extOf(`file:///${content.filename}`) : extOf(content.url);
  return ext ? parsers.find((p) => p.accepts.ext.includes(ext)) : undefined;
}
