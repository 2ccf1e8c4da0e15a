/**
 * Code: every `<pre>` (with or without an inner `<code>`) becomes a fenced block, and `<code>` elsewhere
 * a code span. The block language comes from `language-x` / `lang-x` classes (on `pre`, its `code` or a
 * wrapper), `highlight-x` (Sphinx, GitHub), `brush: x` (SyntaxHighlighter), `sourceCode x` (pandoc) or
 * a `data-lang` attribute. Line breaks written as `<br>` or one element per line are kept; the fence
 * grows when the code itself contains backtick runs. Inside a GFM table cell a block becomes a code span.
 */
import { isTag, type AnyNode, type Element } from '../../core/html/dom.ts';

const LANG_PATTERNS = [
  /(?:^|\s)(?:language|lang)-([\w+#.-]+)/i,
  /(?:^|\s)highlight-(?:source-|text-)?([\w+#-]+)/i,
  /brush:\s*([\w+#-]+)/i,
  /(?:^|\s)sourceCode\s+([\w+#-]+)/,
];
const NO_LANG = new Set(['none', 'text', 'plain', 'plaintext', 'default', 'nohighlight', 'txt', 'notranslate', 'source']);

/**
 * The code language named by a `data-lang`-style attribute value or by class names (LANG_PATTERNS),
 * lower case; undefined when neither names one (or names a "no language" word).
 */
export function languageOf(data: string | null | undefined, cls: string): string | undefined {
  if (data && /^[\w+#.-]{1,30}$/.test(data)) return data.toLowerCase();
  for (const re of LANG_PATTERNS) {
    const m = re.exec(cls);
    if (m && !NO_LANG.has(m[1].toLowerCase())) return m[1].toLowerCase();
  }
  return undefined;
}

function langFromNode(el: Element): string | undefined {
  const a = el.attribs;
  return languageOf(a['data-lang'] ?? a['data-language'] ?? a['data-code-block-lang'], a.class ?? '');
}

/**
 * The code language of a `<pre>`: its first `<code>`/`<span>` child, itself, then up to two wrappers
 * (`parent`, `grandparent`: null above the converted nodes). '' when none says.
 */
export function codeLanguage(pre: Element, parent: Element | null, grandparent: Element | null): string {
  const code = pre.children.find((c) => isTag(c) && (c.name === 'code' || c.name === 'span')) as Element | undefined;
  for (const c of [code, pre, parent, grandparent]) {
    const lang = c && langFromNode(c);
    if (lang) return lang;
  }
  return '';
}

const LINE_BLOCKS = new Set(['div', 'p', 'li', 'tr']);
const NL = 'nl' as const;

/**
 * Text of a code block with `<br>` and per-line block elements turned into newlines, no-break spaces
 * as spaces, the newline an HTML parser drops right after `<pre>` dropped (and one more leading
 * newline), trailing whitespace removed.
 */
export function codeText(pre: Element): string {
  const out: string[] = [];
  const stack: (AnyNode | typeof NL)[] = [];
  for (let i = pre.children.length - 1; i >= 0; i--) stack.push(pre.children[i]);
  let first = true;
  while (stack.length) {
    const x = stack.pop()!;
    if (x === NL) {
      if (out.length && !out[out.length - 1].endsWith('\n')) out.push('\n');
    } else if (x.type === 'text') {
      const data = (x as { data: string }).data;
      out.push(first && data.charCodeAt(0) === 10 ? data.slice(1) : data);
    } else if (isTag(x)) {
      if (x.name === 'br') out.push('\n');
      else if (x.name !== 'template') {
        if (LINE_BLOCKS.has(x.name)) stack.push(NL);
        for (let i = x.children.length - 1; i >= 0; i--) stack.push(x.children[i]);
      }
    }
    first = false;
  }
  return out.join('').replace(/\u00a0/g, ' ').replace(/^\n/, '').replace(/\s+$/, '');
}

function fenceFor(text: string): string {
  const runs = text.match(/`{3,}/g);
  const longest = runs ? Math.max(...runs.map((r) => r.length)) : 0;
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Markdown of a `<pre>`: a fenced block, or a code span inside a data table cell; '' when empty. */
export function codeBlock(pre: Element, parent: Element | null, grandparent: Element | null, inDataCell: boolean): string {
  const text = codeText(pre);
  if (!text.trim()) return '';
  if (inDataCell) {
    const flat = text.replace(/\s*\n\s*/g, ' ');
    const ticks = '`'.repeat((flat.match(/`+/g) ?? ['']).reduce((m, r) => Math.max(m, r.length), 0) + 1);
    return ticks + (flat.startsWith('`') ? ' ' : '') + flat + (flat.endsWith('`') ? ' ' : '') + ticks;
  }
  const fence = fenceFor(text);
  return '\n\n' + fence + codeLanguage(pre, parent, grandparent) + '\n' + text + '\n' + fence + '\n\n';
}

/** Whether `c` is a line terminator for a regex `.` (which does not match it). */
const isLineTerminator = (c: number) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;

/**
 * Whether a code span's content needs a space inside its delimiters: it starts or ends with a
 * backtick, or it is padded with spaces on both sides around something else. The answer of
 * `/^`|^ .*?[^ ].* $|`$/` (turndown's test), computed in one pass instead of the regex, which
 * backtracks quadratically on long contents that start but do not end with a space.
 */
function needsPadding(content: string): boolean {
  const n = content.length;
  if (content.charCodeAt(0) === 96 || content.charCodeAt(n - 1) === 96) return true;
  if (n < 3 || content.charCodeAt(0) !== 32 || content.charCodeAt(n - 1) !== 32) return false;
  // `.` stops at line terminators and `[^ ]` matches one: with none inside, any non-space will do;
  // with one, `[^ ]` takes it; with two or more, no match.
  let terminators = 0;
  let other = false;
  for (let i = 1; i < n - 1; i++) {
    const c = content.charCodeAt(i);
    if (isLineTerminator(c)) terminators++;
    else if (c !== 32) other = true;
  }
  return terminators === 1 || (terminators === 0 && other);
}

/** A code span of already converted `content` (newlines as spaces, delimiter longer than any run). */
export function codeSpan(content: string): string {
  if (!content) return '';
  if (content.includes('\n') || content.includes('\r')) content = content.replace(/\r?\n|\r/g, ' ');
  const extraSpace = needsPadding(content) ? ' ' : '';
  // The shortest backtick run length that no run in the content has.
  let runs = 0; // bit k: a run of k + 1 backticks (runs of 31+ are in `long`)
  let long: Set<number> | undefined;
  for (let i = content.indexOf('`'); i >= 0; i = content.indexOf('`', i)) {
    let j = i + 1;
    while (content.charCodeAt(j) === 96) j++;
    const len = j - i;
    if (len <= 31) runs |= 1 << (len - 1);
    else (long ??= new Set()).add(len);
    i = j;
  }
  let size = 1;
  while (size <= 31 ? runs & (1 << (size - 1)) : long?.has(size)) size++;
  const delimiter = '`'.repeat(size);
  return delimiter + extraSpace + content + extraSpace + delimiter;
}
