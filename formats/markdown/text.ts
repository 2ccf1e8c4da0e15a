/**
 * Markdown text helpers: escaping of text nodes (only what would change the rendering: emphasis
 * markers, backticks, link brackets, HTML-looking text and line-start block markers; intraword `_` and
 * lone brackets are left alone so `snake_case` and `[1]` stay readable), the final tidy pass (no runs of
 * blank lines, no trailing spaces except hard breaks, no empty list items, headings or links; fenced
 * code untouched) and base64 image placeholders (interface.md `removeBase64Images`).
 */

/** Escapes a text node for markdown (turndown's `escape` hook). */
export function escapeMarkdown(text: string): string {
  let s = text
    .replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\')
    .replace(/\*/g, '\\*')
    .replace(/`/g, '\\`')
    .replace(/(^|[^\p{L}\p{N}_])_+|_+(?=$|[^\p{L}\p{N}_])/gu, (m) => m.replace(/_/g, '\\_'))
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');
  if (/\][([:]/.test(s)) s = s.replace(/([[\]])/g, '\\$1');
  s = s
    .replace(/^([-+])(?=\s)/, '\\$1')
    .replace(/^(#{1,6})(?=\s|$)/, '\\$1')
    .replace(/^>/, '\\>')
    .replace(/^(=+)(?=\s*$)/, '\\$1')
    .replace(/^(\d+)([.)])(?=\s)/, '$1\\$2')
    .replace(/^(~~~|```)/, '\\$1');
  return s;
}

/** Placeholder that replaces the URL of a base64 image (alt text kept). */
export const BASE64_PLACEHOLDER = '<Base64-Image-Removed>';

/** Replaces `![alt](data:...)` images of an existing markdown text by the placeholder. */
export function removeBase64FromMarkdown(md: string): string {
  return md.replace(/!\[([^\]\n]*)\]\(\s*<?data:[^)\s>]*>?\s*\)/gi, `![$1](${BASE64_PLACEHOLDER})`);
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** Final clean-up of converted markdown (see file header). */
export function tidyMarkdown(md: string): string {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let blank = 0;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    const f = FENCE.exec(line);
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
    const hardBreak = / {2,}$/.test(line) && line.trim() !== '' && (lines[i + 1] ?? '').trim() !== '';
    // A single leading space is a whitespace artifact (indents that mean something are 2+ spaces).
    line = line.replace(/(?<!!)\[\s*\]\([^()\s]*\)/g, '').replace(/^ (?=\S)/, '').trimEnd();
    if (/^\s*([-*+]|\d+[.)])\s*$/.test(line) || /^#{1,6}\s*$/.test(line)) line = '';
    if (line.trim() === '') {
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
