/**
 * The parse request (compat.md §14): limits, the options a file upload accepts (a subset of the
 * scrape options of interface.md), the ones it refuses with 400 PARSE_UNSUPPORTED_OPTIONS, and the
 * resolution of the `options` part into `ScrapeOptions`. TypeBox only, no Elysia, so the checks can
 * be tested without a server.
 */
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FormatPlugin } from '../../plugin.ts';
import { TrawlError } from '../../errors.ts';
import { resolveFormats, resolveScrapeOptions } from '../../pipeline/scrape-options.ts';
import { defaultTimeout } from '../../scrape/formats.ts';
import { scrapeOptionsSchema, type ScrapeOptions } from './scrape.ts';
import { MAX_JSON_DEPTH, assertStorableStrings, jsonDepth } from '../body.ts';

/** Largest file `POST /v2/parse` takes, bytes (compat.md §14: 50 MB). */
export const PARSE_MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Largest multipart body: the file plus room for the options part and the multipart framing, bytes. */
export const PARSE_MAX_BODY_BYTES = PARSE_MAX_FILE_BYTES + 1024 * 1024;
/** Default `timeout` of a parse, ms (compat.md §14). */
export const PARSE_DEFAULT_TIMEOUT_MS = 30_000;
/** Longest file name kept, characters. */
const MAX_FILENAME = 255;

/** Formats that need a live page (or a medium a file does not have), refused for uploads. */
const UNSUPPORTED_FORMATS: Record<string, string> = {
  screenshot: 'the screenshot format (a file has no rendered page)',
  branding: 'the branding format',
  changeTracking: 'the changeTracking format (change tracking)',
  audio: 'the audio format',
  video: 'the video format',
};

/**
 * The first option a file upload cannot honour, as a message naming it, or undefined
 * (compat.md §14: actions, screenshot, branding, changeTracking, audio/video, `waitFor` > 0,
 * `location`, `mobile`, proxies other than basic|auto; Trawl adds the cache-only and browser-profile
 * options, which have no meaning for an upload).
 * @param raw the parsed `options` object as sent
 */
export function unsupportedParseOption(raw: Record<string, unknown>): string | undefined {
  const no = (what: string) => `Parse uploads do not support ${what}. Remove it from the options.`;
  if (Array.isArray(raw.actions) ? raw.actions.length > 0 : raw.actions !== undefined) return no('actions');
  if (Array.isArray(raw.formats)) {
    for (const f of raw.formats) {
      const type = typeof f === 'string' ? f : f && typeof f === 'object' ? (f as { type?: unknown }).type : undefined;
      if (typeof type === 'string' && Object.hasOwn(UNSUPPORTED_FORMATS, type)) return no(UNSUPPORTED_FORMATS[type]!);
    }
  }
  if (typeof raw.waitFor === 'number' && raw.waitFor > 0) return no('waitFor (there is no page to wait for)');
  if (raw.location !== undefined && raw.location !== null) return no('location overrides');
  if (raw.mobile === true) return no('mobile rendering');
  if (raw.proxy !== undefined && raw.proxy !== 'basic' && raw.proxy !== 'auto') {
    return `Parse uploads only support the proxy values "basic" and "auto", got ${JSON.stringify(raw.proxy)}.`;
  }
  if (raw.lockdown === true || raw.minAge !== undefined) return no('cache-only requests (lockdown, minAge): uploads are never cached');
  if (raw.profile !== undefined) return no('browser profiles');
  return undefined;
}

/**
 * Turns the `options` part into resolved scrape options for a parse: the unsupported options
 * refused, the rest validated like a scrape's, `timeout` defaulting to 30000 ms, and nothing cached.
 * @param text    the `options` part, undefined when the request has none
 * @param formats registered format plugins
 * @throws TrawlError BAD_REQUEST_INVALID_JSON (not JSON), BAD_REQUEST (not an object, or invalid
 *         values, with `details`), PARSE_UNSUPPORTED_OPTIONS naming the option
 */
export function resolveParseOptions(text: string | undefined, formats: Map<string, FormatPlugin>): ScrapeOptions {
  let raw: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    if (jsonDepth(text) > MAX_JSON_DEPTH) throw new TrawlError('BAD_REQUEST', `The "options" part nests deeper than ${MAX_JSON_DEPTH} levels.`);
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new TrawlError(
        'BAD_REQUEST_INVALID_JSON',
        `The "options" part is not valid JSON (${(e as Error).message}). Send the options as a JSON object string, e.g. {"formats":["markdown"]}.`,
      );
    }
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new TrawlError('BAD_REQUEST', 'The "options" part must be a JSON object, e.g. {"formats":["markdown"]}.');
  }
  assertStorableStrings(raw, '"options" part');
  const options = raw as Record<string, unknown>;
  const unsupported = unsupportedParseOption(options);
  if (unsupported) throw new TrawlError('PARSE_UNSUPPORTED_OPTIONS', unsupported);
  const requested = resolveFormats(options.formats, formats, 'parse'); // names an unknown format more clearly than the schema
  const schema = scrapeOptionsSchema([...formats.values()]);
  const errors = [...Value.Errors(schema, options)].slice(0, 20);
  if (errors.length) {
    const explain = (e: (typeof errors)[number]) => (e.schema as { explain?: (v: unknown) => string | undefined }).explain?.(e.value);
    const details = errors.map((e) => ({ path: e.path || '/', message: explain(e) ?? e.message }));
    throw new TrawlError('BAD_REQUEST', `Invalid options: ${details[0]!.path} ${details[0]!.message}`, { details });
  }
  const timeout = options.timeout ?? defaultTimeout(requested, formats, PARSE_DEFAULT_TIMEOUT_MS);
  const resolved = resolveScrapeOptions({ ...options, timeout }, formats, 'parse');
  return { ...resolved, storeInCache: false, maxAge: 0 };
}

/**
 * A safe file name for an upload: directories dropped, control characters removed, at most 255
 * characters; `upload` when nothing is left.
 */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, MAX_FILENAME);
  return clean || 'upload';
}

/** The multipart body, for the OpenAPI document (the route reads the body itself). */
export const ParseBody = Type.Object({
  file: Type.String({ format: 'binary', description: `The file (at most ${PARSE_MAX_FILE_BYTES} bytes), with a file name and content type.` }),
  options: Type.Optional(Type.String({ description: 'Scrape options as a JSON string (formats, onlyMainContent, includeTags, excludeTags, timeout, parsers, ...).' })),
});
