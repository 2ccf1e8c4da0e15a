/**
 * Replaces detected PII in a string per `replaceStyle` (compat.md §2.2): `tag` → `<EMAIL>`,
 * `mask` → one `*` per character (line breaks kept, so a private-key block keeps its shape),
 * `remove` → nothing.
 */
import type { DetectOptions, Finding, PiiEntity, PiiMode, RedactOptions, ReplaceStyle } from './types.ts';
import { detectPII } from './detect.ts';

function replacement(text: string, f: Finding, style: ReplaceStyle): string {
  if (style === 'tag') return `<${f.type}>`;
  if (style === 'remove') return '';
  return text.slice(f.start, f.end).replace(/[^\n]/g, '*');
}

/** Applies `findings` (non-overlapping, sorted) to `text`. */
export function applyFindings(text: string, findings: Finding[], style: ReplaceStyle): string {
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + replacement(text, f, style);
    at = f.end;
  }
  return out + text.slice(at);
}

/**
 * Finds PII in `text`, also where a URL percent-encodes the `@` of an email (`a%40b.com`): the
 * detectors see a view with `%40` decoded, and the findings are mapped back to `text` offsets.
 */
export function findPII(text: string, mode: PiiMode, entities: readonly PiiEntity[], options?: DetectOptions): Finding[] {
  if (!/%40/i.test(text)) return detectPII(text, mode, entities, options);
  let view = '';
  const pos: number[] = [];
  for (let i = 0; i < text.length; ) {
    pos.push(i);
    if (text[i] === '%' && text.slice(i + 1, i + 3) === '40') {
      view += '@';
      i += 3;
    } else view += text[i++];
  }
  pos.push(text.length);
  return detectPII(view, mode, entities, options).map((f) => ({ ...f, start: pos[f.start]!, end: pos[f.end]! }));
}

/** Redacts one string; returns it unchanged (the same string) when nothing is found. */
export function redactText(text: string, options: RedactOptions): string {
  if (!/[\d@A-Za-z]/.test(text)) return text;
  const findings = findPII(text, options.mode, options.entities);
  return findings.length ? applyFindings(text, findings, options.replaceStyle) : text;
}
