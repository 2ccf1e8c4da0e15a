/**
 * Replaces detected PII in a string per `replaceStyle` (compat.md §2.2): `tag` → `<EMAIL>`,
 * `mask` → one `*` per character (line breaks kept, so a private-key block keeps its shape),
 * `remove` → nothing.
 */
import type { Finding, RedactOptions, ReplaceStyle } from './types.ts';
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

/** Redacts one string; returns it unchanged (the same string) when nothing is found. */
export function redactText(text: string, options: RedactOptions): string {
  if (!/[\d@A-Za-z]/.test(text)) return text;
  const findings = detectPII(text, options.mode, options.entities);
  return findings.length ? applyFindings(text, findings, options.replaceStyle) : text;
}
