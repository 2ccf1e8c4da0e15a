/**
 * The tree parseHtml builds (core/html/tree.ts, its own htmlparser2 handler) against domhandler's
 * DomHandler on the same input: same nodes in the same places (types, names, attributes, texts with
 * entities merged, comments, directives, implied and void elements), consistent parent/prev/next
 * links, and domhandler's prototypes (getters, cloneNode, instanceof, css-select) still working. The
 * tokenizer's fast skips (core/html/tokenizer.ts) are checked against the stock tokenizer on inputs
 * that stop or turn inside texts, names and values.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'htmlparser2';
import { selectAll } from 'css-select';
import { Element, Text, cloneNode, type AnyNode, type ParentNode } from 'domhandler';
import { findFirst, nonSpaceLength, parseHtml, serializeHtml, textOf } from '../../core/html/dom.ts';
import { buildTree } from '../../core/html/tree.ts';

const OPTS = { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true, recognizeSelfClosing: false };

/** The tree as plain data, with every link checked against the child lists. */
function shape(node: AnyNode): unknown {
  const n = node as AnyNode & { name?: string; attribs?: Record<string, string>; data?: string; children?: AnyNode[] };
  const kids = n.children;
  if (kids) {
    kids.forEach((k, i) => {
      expect(k.parent).toBe(node as ParentNode);
      expect(k.prev).toBe(kids[i - 1] ?? null);
      expect(k.next).toBe(kids[i + 1] ?? null);
    });
  }
  return { type: n.type, name: n.name, attribs: n.attribs, data: n.data, children: kids?.map(shape) };
}

const TRICKY = `<!DOCTYPE html><html><head><title>A &amp; B</title><script>if (a < b && c) x();</script>
<style>p > a { color: red }</style></head><body><!-- a comment --><p class=x ID="Y">one &lt;two&gt; &copy; three
<p>implied close<br/>after br</br><img src=a.png alt="&quot;q&quot;"><div>text<!-- c -->more&nbsp;text</div>
<ul><li>a<li>b</ul><table><tr><td>c<td>d</table><svg viewBox="0 0 1 1"><foreignObject><b>f</b></foreignObject><path d="M0"/></svg>
<![CDATA[ x y ]]><form><form><input value=v></form><?php echo 1 ?><textarea>&lt;b&gt;</textarea></body></html>`;

describe('parseHtml tree', () => {
  test('same nodes as domhandler, links consistent', () => {
    expect(shape(parseHtml(TRICKY))).toEqual(shape(parseDocument(TRICKY, OPTS)));
    expect(serializeHtml(parseHtml(TRICKY))).toBe(serializeHtml(parseDocument(TRICKY, OPTS)));
  });

  test("fast tokenizer skips: the stock tokenizer's tree at every edge", () => {
    const edges = [
      `<DIV Class="a&amp;b" data-X='c&lt;d' e=f&amp;g h i=>x &amp y &ampz a&b < c <3 </DIV junk>tail`,
      `<p title="no end`, `<p title='no end`, `<p ti`, `<p`, `<`, `text &am`, `text &amp`, `x</p`, `x</`,
      `<a href="q?x=1&y=2" id=u>link</a ><br/><img/src=x><input value="">`,
      `<script>a<b; "</scr" + "ipt>"; x&amp;</script ><style>a{}</style><title>t &amp; u</title>`,
      `<!-- c --><!---><!--x--!><!doctype html><?pi x?><![CDATA[ y ]]>&#x41;&#65;&notin;&notit;`,
      `<svg><TEXT>a</TEXT><foreignObject><p>b</p></foreignObject></svg><math><mi>x</mi></math>`,
    ];
    for (const html of edges) {
      for (const recognizeSelfClosing of [false, true]) {
        const opts = { ...OPTS, recognizeSelfClosing };
        expect(shape(buildTree(html, opts))).toEqual(shape(parseDocument(html, opts)));
      }
    }
  });

  test('nonSpaceLength counts what textOf keeps apart from white space', () => {
    const doc = parseHtml(TRICKY + '<p>a\u00a0b\u2003c\ufeff d\n<br>e</p>');
    expect(nonSpaceLength(doc)).toBe(textOf(doc).replace(/\s+/g, '').length);
    expect(nonSpaceLength(findFirst(doc, 'ul')!)).toBe(2);
  });

  test('same nodes as domhandler on the test fixture pages', () => {
    const dir = join(import.meta.dir, '../fixtures/pages');
    const files = readdirSync(dir).filter((f) => f.endsWith('.html'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const html = readFileSync(join(dir, f), 'utf8');
      expect(shape(parseHtml(html))).toEqual(shape(parseDocument(html, OPTS)));
    }
  });

  test("nodes keep domhandler's prototypes: getters, cloneNode, instanceof, css-select", () => {
    const doc = parseHtml('<div id="a"><p>x &amp; y</p><p class="k">z</p></div>');
    const div = findFirst(doc, 'div')!;
    expect(div).toBeInstanceOf(Element);
    expect(div.firstChild).toBe(div.children[0]);
    expect(div.tagName).toBe('div');
    const text = (div.children[0] as Element).children[0];
    expect(text).toBeInstanceOf(Text);
    expect((text as Text).data).toBe('x & y');
    expect(text.parentNode).toBe(div.children[0] as Element);
    const copy = cloneNode(div, true);
    expect(serializeHtml(copy)).toBe(serializeHtml(div));
    expect(selectAll('div > p.k', doc).map((e) => serializeHtml(e))).toEqual(['<p class="k">z</p>']);
  });
});
