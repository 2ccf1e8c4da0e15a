/**
 * Markdown text helpers: escaping of text nodes (only what would change the rendering: emphasis
 * markers, backticks, link brackets, HTML-looking text and line-start block markers; intraword `_` and
 * lone brackets are left alone so `snake_case` and `[1]` stay readable), the final tidy pass (no runs of
 * blank lines, no trailing spaces except hard breaks, no empty list items, headings or links; fenced
 * code untouched) and base64 image placeholders (interface.md `removeBase64Images`).
 */
import { isSpaceCode } from '../../core/html/dom.ts';

// Characters that can need an escape, as bits (one scan finds which replacements can apply).
const BACKSLASH = 1;
const STAR = 2;
const TICK = 4;
const UNDERSCORE = 8;
const LT = 16;
const AMP = 32;
const BRACKET = 64;
const SPECIAL = new Uint8Array(128);
SPECIAL[92] = BACKSLASH;
SPECIAL[42] = STAR;
SPECIAL[96] = TICK;
SPECIAL[95] = UNDERSCORE;
SPECIAL[60] = LT;
SPECIAL[38] = AMP;
SPECIAL[93] = BRACKET;

/** Whether a text starting with this code unit can need a line-start escape (`-`, `+`, `#`, `>`, `=`, digits, `~`, backtick). */
const isLineStart = (c: number) => c === 45 || c === 43 || c === 35 || c === 62 || c === 61 || (c >= 48 && c <= 57) || c === 126 || c === 96;

/** Escapes a text node for markdown. */
export function escapeMarkdown(text: string): string {
  let found = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) found |= SPECIAL[c];
  }
  if (!found && !isLineStart(text.charCodeAt(0))) return text;
  let s = text;
  if (found & BACKSLASH) s = s.replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\');
  if (found & STAR) s = s.replace(/\*/g, '\\*');
  if (found & TICK) s = s.replace(/`/g, '\\`');
  if (found & UNDERSCORE) s = s.replace(/(^|[^\p{L}\p{N}_])_+|_+(?=$|[^\p{L}\p{N}_])/gu, (m) => m.replace(/_/g, '\\_'));
  if (found & LT) s = s.replace(/<(?=[A-Za-z/!?])/g, '\\<');
  if (found & AMP) s = s.replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');
  if (found & BRACKET && /\][([:]/.test(s)) s = s.replace(/([[\]])/g, '\\$1');
  if (!isLineStart(s.charCodeAt(0))) return s;
  return s
    .replace(/^([-+])(?=\s)/, '\\$1')
    .replace(/^(#{1,6})(?=\s|$)/, '\\$1')
    .replace(/^>/, '\\>')
    .replace(/^(=+)(?=\s*$)/, '\\$1')
    .replace(/^(\d+)([.)])(?=\s)/, '$1\\$2')
    .replace(/^(~~~|```)/, '\\$1');
}

/** Placeholder that replaces the URL of a base64 image (alt text kept). */
/** A URL for a markdown link target: trimmed, white space percent-encoded, and `( ) < >` escaped. */
export function encodeUrl(url: string): string {
  return url.trim().replace(/\s/g, (c) => encodeURIComponent(c)).replace(/[()<>]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** Markdown of several lines as one line (link text wrapping blocks): block markers dropped, joined by spaces. */
export function oneLine(content: string): string {
  return content
    .split('\n')
    .map((l) => l.replace(/^\s*(#{1,6}\s+|[-*+]\s+|\d+\.\s+|>\s?)/, '').trim())
    .filter(Boolean)
    .join(' ');
}

export const BASE64_PLACEHOLDER = '<Base64-Image-Removed>';

/** Replaces `![alt](data:...)` images of an existing markdown text by the placeholder. */
export function removeBase64FromMarkdown(md: string): string {
  return md.replace(/!\[([^\]\n]*)\]\(\s*<?data:[^)\s>]*>?\s*\)/gi, `![$1](${BASE64_PLACEHOLDER})`);
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** `FENCE.exec(line)`, skipping the regex for lines that cannot open or close a fence. */
function fenceOf(line: string): RegExpExecArray | null {
  let p = 0;
  while (p < 4 && p < line.length && isSpaceCode(line.charCodeAt(p))) p++;
  const c = line.charCodeAt(p);
  return c === 96 || c === 126 ? FENCE.exec(line) : null;
}

/** Final clean-up of converted markdown (see file header). */
export function tidyMarkdown(md: string): string {
  const lines = (md.includes('\r') ? md.replace(/\r\n?/g, '\n') : md).split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let blank = 0;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    const f = fenceOf(line);
    if (fence) {
      out.push(line);
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1];
      blank = 0;
      out.push(line.trimEnd());
      continue;
    }
    const hardBreak = line.endsWith('  ') && line.trim() !== '' && (lines[i + 1] ?? '').trim() !== '';
    // Links without text or target go; a single leading space is a whitespace artifact (indents
    // that mean something are 2+ spaces).
    if (line.includes('](')) line = line.replace(/(?<!!)\[\s*\]\([^()\s]*\)/g, '');
    if (line.charCodeAt(0) === 32 && line.length > 1 && !isSpaceCode(line.charCodeAt(1))) line = line.slice(1);
    line = line.trimEnd();
    // Bullets and headings left without text go.
    const last = line.charCodeAt(line.length - 1);
    if ((last === 45 || last === 42 || last === 43 || last === 46 || last === 41 || last === 35) && (/^\s*([-*+]|\d+[.)])\s*$/.test(line) || /^#{1,6}\s*$/.test(line))) line = '';
    if (line === '') {
      blank++;
      if (blank === 1 && out.length) out.push('');
      continue;
    }
    blank = 0;
    out.push(hardBreak ? line + '  ' : line);
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
