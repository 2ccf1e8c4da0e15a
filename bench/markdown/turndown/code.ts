/**
 * Reference copy (turndown rules of the former converter) for bench/markdown/compare.ts.
 *
 * Turndown rule for code blocks: every `<pre>` (with or without an inner `<code>`) becomes a fenced
 * block. The language comes from `language-x` / `lang-x` classes (on `pre`, its `code` or a wrapper),
 * `highlight-x` (Sphinx, GitHub), `brush: x` (SyntaxHighlighter), `sourceCode x` (pandoc) or a
 * `data-lang` attribute. Line breaks written as `<br>` or one element per line are kept; the fence grows
 * when the code itself contains backtick runs. Inside a GFM table cell the code becomes a code span.
 */
import type TurndownService from 'turndown';
import { asNode, inDataCell, type DNode } from './tables.ts';
import { languageOf } from '../../../formats/markdown/code.ts';

function langFromNode(n: DNode): string | undefined {
  if (n.nodeType !== 1) return undefined;
  return languageOf(n.getAttribute('data-lang') ?? n.getAttribute('data-language') ?? n.getAttribute('data-code-block-lang'), n.getAttribute('class') ?? '');
}

/** The code language of a `<pre>`: its first `<code>` child, itself, then up to two wrappers. */
export function codeLanguage(pre: DNode): string {
  const code = Array.from(pre.childNodes).find((c) => c.nodeName === 'CODE' || (c.nodeType === 1 && c.nodeName === 'SPAN'));
  const candidates: (DNode | null)[] = [code ?? null, pre, pre.parentNode, pre.parentNode?.parentNode ?? null];
  for (const c of candidates) {
    const lang = c && langFromNode(c);
    if (lang) return lang;
  }
  return '';
}

const LINE_BLOCKS = new Set(['DIV', 'P', 'LI', 'TR']);

/** Text of a code block with `<br>` and per-line block elements turned into newlines. */
export function codeText(pre: DNode): string {
  const out: string[] = [];
  const walk = (n: DNode) => {
    const stack: (DNode | 'nl')[] = [n];
    while (stack.length) {
      const x = stack.pop()!;
      if (x === 'nl') {
        if (out.length && !out[out.length - 1].endsWith('\n')) out.push('\n');
        continue;
      }
      if (x.nodeType === 3) out.push(x.nodeValue ?? '');
      else if (x.nodeName === 'BR') out.push('\n');
      else {
        if (LINE_BLOCKS.has(x.nodeName)) stack.push('nl');
        const kids = Array.from(x.childNodes);
        for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
      }
    }
  };
  walk(pre);
  return out.join('').replace(/\u00a0/g, ' ').replace(/^\n/, '').replace(/\s+$/, '');
}

function fenceFor(text: string): string {
  const runs = text.match(/`{3,}/g);
  const longest = runs ? Math.max(...runs.map((r) => r.length)) : 0;
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Adds the fenced code block rule (replaces turndown's `pre > code`-only rule). */
export function addCodeRules(service: TurndownService): void {
  service.addRule('codeBlock', {
    filter: 'pre',
    replacement(_content, node) {
      const n = asNode(node);
      const text = codeText(n);
      if (!text.trim()) return '';
      if (inDataCell(n)) {
        const flat = text.replace(/\s*\n\s*/g, ' ');
        const ticks = '`'.repeat((flat.match(/`+/g) ?? ['']).reduce((m, r) => Math.max(m, r.length), 0) + 1);
        return ticks + (flat.startsWith('`') ? ' ' : '') + flat + (flat.endsWith('`') ? ' ' : '') + ticks;
      }
      const fence = fenceFor(text);
      return '\n\n' + fence + codeLanguage(n) + '\n' + text + '\n' + fence + '\n\n';
    },
  });
}
