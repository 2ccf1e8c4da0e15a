/**
 * The markdown converter proper: walks htmlparser2/domhandler nodes and applies the element rules
 * (rules.ts) bottom-up, with turndown's semantics (Trawl used turndown before; bench/markdown/compare.ts
 * checks the two agree): whitespace collapsed during the walk (collapse.ts), text escaped (text.ts) except inside
 * `<code>`, blank elements dropped (a block leaves a paragraph break), whitespace at the edges of an
 * inline element moved outside its markup (`a *b* c`, not `a* b *c`), and results joined with the
 * line breaks around them merged (at most one blank line). Finished by `tidyMarkdown`.
 *
 * Iterative: an explicit stack of frames (`Box`, box.ts), one per open element, so any nesting depth
 * converts. A frame becomes the element's result when it closes; its parent renders it once all
 * siblings are known (flanking whitespace looks at both neighbours). The DOM is not modified.
 */
import { isTag, type AnyNode } from '../../core/html/dom.ts';
import { WhitespaceCollapser } from './collapse.ts';
import { Box, addChild, addText, newlines, preStats } from './box.ts';
import { applyRule, wrapPad, type RuleContext } from './rules.ts';
import { escapeMarkdown, tidyMarkdown } from './text.ts';
import { CAPTION, CELL, INLINE, LI, LINK, PRE, tagFlags } from './tags.ts';

export interface MarkdownOptions {
  /** Replace `data:` image URLs by `<Base64-Image-Removed>` (alt text kept). Default true. */
  removeBase64Images?: boolean;
}

type Item = string | Box;

const endsWithSpace = (x: Item | undefined) => (typeof x === 'string' ? x.endsWith(' ') : !!x && !x.block && x.trail.endsWith(' '));
const startsWithSpace = (x: Item | undefined) => (typeof x === 'string' ? x.startsWith(' ') : !!x && !x.block && x.lead.startsWith(' '));
const ASCII_WS_START = /^[ \t\r\n]+/;
const ASCII_WS_END = /[ \t\r\n]+$/;

function ruleFor(c: Box, content: string, parent: Box, ctx: RuleContext): string {
  return c.links && c.flags & LINK ? content : applyRule(c.el!, c.flags, content, parent, ctx);
}

/**
 * The markdown of child `c` of `parent` between siblings `prev` and `next`: blank elements vanish (a
 * block leaves a line break), and whitespace at the edges of an inline element's text moves outside
 * its markup unless a neighbour already supplies it.
 */
function replacement(c: Box, prev: Item | undefined, next: Item | undefined, parent: Box, ctx: RuleContext): string {
  if (c.allWs && !c.vm) {
    if (c.block) return '\n\n';
    return c.lead && endsWithSpace(prev) ? c.lead.replace(ASCII_WS_START, '') : c.lead;
  }
  if (c.block || (!c.lead && !c.trail)) return ruleFor(c, c.content(), parent, ctx);
  let leading = c.lead;
  let trailing = c.allWs ? '' : c.trail;
  if (leading && endsWithSpace(prev)) leading = leading.replace(ASCII_WS_START, '');
  if (trailing && startsWithSpace(next)) trailing = trailing.replace(ASCII_WS_END, '');
  const content = leading || trailing ? c.content().trim() : c.content();
  return leading + ruleFor(c, content, parent, ctx) + trailing;
}

/** Closes a frame: text edges from its children, then (unless unused) its converted content. */
function finish(b: Box, ctx: RuleContext): void {
  const items = b.items;
  const n = items.length;
  for (let j = 0; j < n; j++) {
    const it = items[j];
    if (typeof it === 'string') addText(b, it);
    else addChild(b, it);
  }
  if (b.allWs) b.trail = b.lead;
  if (b.flags & CAPTION) {
    const text = b.sink!.join('');
    ctx.captions.set(b.el!, text);
    b.up?.sink?.push(text);
  }
  if (b.skip || (b.up && b.allWs && !b.vm)) return b.release();
  // Joins the children's results, turndown style: the newlines where two results meet are merged
  // (the larger count wins, at most two); `nl` holds the pending newlines after `out`.
  let out = '';
  let lead = 0;
  let nl = 0;
  let li = 0;
  let cells = 0;
  for (let j = 0; j < n; j++) {
    const it = items[j];
    let core: string;
    let a: number; // newlines before `core`
    let z: number; // newlines after `core`
    if (typeof it === 'string') {
      core = b.code ? it : escapeMarkdown(it);
      a = z = 0;
    } else {
      if (it.flags & LI) ctx.liIndex = li++;
      else if (it.flags & CELL) ctx.firstCell = cells++ === 0;
      const pad = (it.allWs && !it.vm) || (!it.block && (it.lead || it.trail)) ? -1 : wrapPad(it.el!, it.flags, b, ctx);
      if (pad >= 0) {
        // A plain wrapper (paragraph, unknown element ...): its content with `pad` newlines around.
        core = it.core;
        a = pad + it.nlLead;
        z = it.nlTrail + pad;
      } else {
        ctx.hasNext = j + 1 < n;
        const rep = replacement(it, items[j - 1], items[j + 1], b, ctx);
        if (!it.lead && !it.trail && (it.flags & INLINE || (it.flags & LINK && !it.links && it.el!.attribs.href?.trim()))) {
          // No newlines at its edges: no need to look (which would flatten the string early).
          core = rep;
          a = z = 0;
        } else {
          const len = rep.length;
          a = 0;
          while (a < len && rep.charCodeAt(a) === 10) a++;
          z = len;
          while (z > a && rep.charCodeAt(z - 1) === 10) z--;
          core = a === 0 && z === len ? rep : rep.slice(a, z);
          z = len - z;
        }
      }
    }
    if (!core) {
      nl = Math.min(2, Math.max(nl, a + z));
      continue;
    }
    const sep = Math.min(2, Math.max(nl, a));
    if (out) out += newlines(sep);
    else lead = sep;
    out += core;
    nl = z;
  }
  b.core = out;
  b.nlLead = out ? lead : 0;
  b.nlTrail = nl;
  b.release();
}

function rootsOf(nodes: AnyNode | ArrayLike<AnyNode>): AnyNode[] {
  const list = 'type' in nodes ? [nodes as AnyNode] : Array.from(nodes as ArrayLike<AnyNode>);
  return list.flatMap((n) => (n.type === 'root' ? (n as unknown as { children: AnyNode[] }).children : [n]));
}

/**
 * Converts domhandler nodes (a Document, an element, or a list of nodes) to markdown. Ancestors of the
 * given nodes are not looked at (as if the nodes were serialized and converted alone); the nodes are
 * not modified.
 * @returns markdown without trailing newline; '' when the nodes hold no content
 */
export function nodesToMarkdown(nodes: AnyNode | ArrayLike<AnyNode>, opts: MarkdownOptions = {}): string {
  const roots = rootsOf(nodes);
  const ctx: RuleContext = { removeBase64: opts.removeBase64Images ?? true, tables: new Map(), captions: new Map(), liIndex: 0, firstCell: false, hasNext: false };
  const ws = new WhitespaceCollapser<Box>((b) => finish(b, ctx));
  const root = new Box(null, null, ctx, 0, roots);
  let cur = root;
  for (;;) {
    const kids = cur.kids;
    if (cur.i < kids.length) {
      const k = kids[cur.i++];
      if (k.type === 'text') {
        // Adjacent text nodes (left by DOM edits; a parser merges them) count as one.
        let raw = (k as { data: string }).data;
        let last = k;
        while (cur.i < kids.length) {
          const n = kids[cur.i];
          if (n.type !== 'text' || n.prev !== last) break;
          raw += (n as { data: string }).data;
          last = n;
          cur.i++;
        }
        ws.text(raw, cur.items, cur.sink);
        continue;
      }
      if (isTag(k)) {
        const b = new Box(k, cur, ctx, tagFlags(k.name));
        if (!b.plain) ws.edge(b.flags);
        if (b.flags & PRE) preStats(b, k);
        if (b.kids.length) cur = b;
        else if (!b.plain) cur.items.push(b);
      }
      continue;
    }
    const up = cur.up;
    if (!up) {
      ws.end();
      finish(cur, ctx);
      break;
    }
    if (cur.plain) {
      // No element of its own: its items join the parent's.
      ws.moved(cur.items, up.items, up.items.length);
      for (const it of cur.items) up.items.push(it);
    } else {
      ws.edge(cur.flags);
      if (ws.unsettled) ws.defer(cur);
      else finish(cur, ctx);
      up.items.push(cur);
    }
    cur = up;
  }
  return tidyMarkdown(root.core.replace(/^[\t\r\n]+/, '').trimEnd());
}
