/**
 * `redactPII` applied to a finished Document (compat.md §2.2, §3): one post-processing step the
 * scrape and parse pipelines run before the document is cached, stored or serialized.
 *
 * What is redacted, by field (a format's fields are treated as its plugin's `content` declares):
 * - Text (`tag` → `<EMAIL>`): `markdown` (link targets and code blocks included), `summary`,
 *   `answer`, `highlights`, every string inside `json`, `pages[].markdown`, `blocks`,
 *   `changeTracking`, action returns, and the text metadata (`title`, `description`, `keywords`,
 *   `og*`/`dc*` text, `author`, any other `<meta>` string).
 * - HTML (`html`, `rawHtml`, `actions.scrapes[].html`): the same detectors without the NLP name
 *   finder (slow on markup), plus every name found in the markdown; a `tag` placeholder is written
 *   `&lt;EMAIL&gt;` so it stays text.
 * - URLs (`links`, `images`, and URL-valued metadata such as `sourceURL`, `url`, `ogUrl`): only the
 *   PII a URL can carry (EMAIL, also percent-encoded `%40`; SECRET; PHONE), the placeholder
 *   percent-encoded.
 * - Not redacted: screenshots and other binary output (a `warning` says so when one is present),
 *   a file returned base64-encoded, and fetch facts (`scrapeId`, `statusCode`, `contentType`, …).
 */
import type { FormatContent } from '../plugin.ts';
import type { Finding, PiiEntity, RedactOptions } from './types.ts';
import { resolveRedactOptions } from './types.ts';
import { applyFindings, findPII, redactText } from './redact.ts';

type Doc = Record<string, unknown> & { metadata: Record<string, unknown> };

/** Keys that are no format's field and never text to redact (action screenshots and PDFs, ids, fetch facts). */
const SKIP = new Set([
  'screenshots', 'pdfs', 'scrapeId', 'statusCode', 'contentType', 'proxyUsed', 'cacheState',
  'cachedAt', 'creditsUsed', 'numPages', 'totalPages', 'timezone', 'language', 'warning', 'concurrencyLimited',
  'concurrencyQueueDurationMs',
]);
const URL_VALUE = /^(?:https?:|mailto:|tel:|ftp:|wss?:|\/\/)\S*$/i;
const BASE64 = /^[A-Za-z0-9+/=\r\n]{256,}$/;
const URL_ENTITIES: PiiEntity[] = ['EMAIL', 'SECRET', 'PHONE'];

/** Redacts the PII a URL can carry; the placeholder is percent-encoded so the URL stays a URL. */
export function redactUrl(url: string, options: RedactOptions): string {
  const entities = options.entities.filter((e) => URL_ENTITIES.includes(e));
  if (entities.length === 0) return url;
  const findings = findPII(url, options.mode, entities);
  if (findings.length === 0) return url;
  const placeholder = (f: Finding) =>
    options.replaceStyle === 'tag' ? encodeURIComponent(`<${f.type}>`) : options.replaceStyle === 'mask' ? '*'.repeat(f.end - f.start) : '';
  return splice(url, findings, placeholder);
}

/** Replaces each finding's span (non-overlapping, sorted) by `placeholder(finding)`. */
function splice(text: string, findings: Finding[], placeholder: (f: Finding) => string): string {
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + placeholder(f);
    at = f.end;
  }
  return out + text.slice(at);
}

/** One document's redaction run: the options, names found so far, and text already redacted. */
interface Run {
  options: RedactOptions;
  /** PERSON names found in the text fields: HTML fields (no NLP there) redact them too. */
  names: Set<string>;
  /** Redacted text by original text (the markdown is done first, once). */
  done: Map<string, string>;
  /** What each format field holds (core/scrape/formats.ts `fieldContents`). */
  contents: ReadonlyMap<string, FormatContent>;
}

/** How a key's value is redacted: by its format's declared content, else as its parent's. */
function modeOf(key: string, run: Run, parent: 'text' | 'markup' | 'url'): 'text' | 'markup' | 'url' | 'skip' {
  if (SKIP.has(key)) return 'skip';
  const content = run.contents.get(key);
  if (content === 'binary') return 'skip';
  if (content === 'markup') return 'markup';
  if (content === 'urls') return 'url';
  return parent;
}

/** Redacts a text field and remembers the names found in it. */
function redactTextField(value: string, run: Run): string {
  const cached = run.done.get(value);
  if (cached !== undefined) return cached;
  const findings = findPII(value, run.options.mode, run.options.entities);
  for (const f of findings) if (f.type === 'PERSON') run.names.add(value.slice(f.start, f.end));
  const out = findings.length ? applyFindings(value, findings, run.options.replaceStyle) : value;
  if (value.length > 1000) run.done.set(value, out);
  return out;
}

function redactValue(value: unknown, run: Run, mode: 'text' | 'markup' | 'url', key?: string): unknown {
  const { options } = run;
  if (typeof value === 'string') {
    if (BASE64.test(value)) return value;
    if (mode === 'url' || URL_VALUE.test(value)) return redactUrl(value, options);
    if (mode === 'markup') {
      const findings = findPII(value, options.mode, options.entities, { nlp: false, names: [...run.names] });
      if (!findings.length) return value;
      return options.replaceStyle === 'tag'
        ? splice(value, findings, (f) => `&lt;${f.type}&gt;`)
        : applyFindings(value, findings, options.replaceStyle);
    }
    return redactTextField(value, run);
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, run, mode, key));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const m = modeOf(k, run, mode);
      out[k] = m === 'skip' ? v : redactValue(v, run, m, k);
    }
    return out;
  }
  return value;
}

/**
 * Redacts a finished document per the request's `redactPII` (true or `{mode, entities,
 * replaceStyle}`); returns the document itself when redaction is off.
 * @param contents what each format field holds (`fieldContents` of the registered formats)
 * @returns a new document; `metadata` keeps its key order
 */
export function redactDocument<D extends Doc>(doc: D, option: unknown, contents: ReadonlyMap<string, FormatContent>): D {
  const options = resolveRedactOptions(option);
  if (!options) return doc;
  const run: Run = { options, names: new Set(), done: new Map(), contents };
  // The markdown first: the names found there are redacted in the HTML fields as well.
  if (typeof doc.markdown === 'string') redactTextField(doc.markdown, run);
  const out = redactValue(doc, run, 'text') as Doc;
  const binary = Object.keys(doc).some((k) => contents.get(k) === 'binary' && doc[k] != null);
  if (binary || (doc.actions as { screenshots?: unknown[] } | undefined)?.screenshots?.length) {
    const note = 'redactPII does not apply to screenshots and other binary output: they may show personal data.';
    out.warning = out.warning ? `${out.warning as string} ${note}` : note;
  }
  return out as D;
}
