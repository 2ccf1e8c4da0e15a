/**
 * The DOM-walking markdown converter (formats/markdown/render.ts): conversion straight from domhandler
 * nodes, any nesting depth, turndown-compatible whitespace, and the cases where it deliberately differs
 * from what an HTML re-parse used to give (nested links, table parts cut off from their table).
 */
import { describe, expect, test } from 'bun:test';
import { htmlToMarkdown, nodesToMarkdown } from '../../formats/markdown/convert.ts';
import { Text, findFirst, parseHtml, relink, serializeHtml } from '../../parsers/html/dom.ts';

describe('nodesToMarkdown', () => {
  test('converts a DOM, an element or a node list like the HTML string, and leaves the DOM as it was', () => {
    const html = '<main><h2>T</h2><p>a <em> b </em>c</p><ul><li>x</li></ul></main><p>after</p>';
    const doc = parseHtml(html);
    const before = serializeHtml(doc);
    expect(nodesToMarkdown(doc)).toBe(htmlToMarkdown(html));
    expect(nodesToMarkdown(doc)).toBe('## T\n\na *b* c\n\n- x\n\nafter');
    expect(nodesToMarkdown(findFirst(doc, 'main')!)).toBe('## T\n\na *b* c\n\n- x');
    expect(nodesToMarkdown(findFirst(doc, 'ul')!.children)).toBe('- x');
    expect(serializeHtml(doc)).toBe(before);
  });

  test('adjacent text nodes (left by DOM edits) convert as the one text a parser would make', () => {
    const doc = parseHtml('<p>Step <b>one</b></p>');
    const p = findFirst(doc, 'p')!;
    const b = findFirst(doc, 'b')!;
    const texts = [new Text(' then '), new Text('1. go_'), new Text('_now  ')];
    p.children.push(...texts);
    relink(p);
    expect(b.next).toBe(texts[0]);
    expect(nodesToMarkdown(doc)).toBe(htmlToMarkdown(serializeHtml(doc)));
    expect(nodesToMarkdown(doc)).toBe('Step **one** then 1. go\_\_now');
  });

  test('ancestors outside the given nodes are not looked at', () => {
    const doc = parseHtml('<ol start="5"><li>five</li></ol><div class="language-python"><pre>x = 1</pre></div>');
    expect(nodesToMarkdown(findFirst(doc, 'li')!)).toBe('- five');
    expect(nodesToMarkdown(findFirst(doc, 'pre')!)).toBe('```\nx = 1\n```');
    expect(nodesToMarkdown(findFirst(doc, 'div')!)).toBe('```python\nx = 1\n```');
  });

  test('10,000-deep nesting converts (no recursion on the JS stack)', () => {
    for (const [open, close] of [['<div>', '</div>'], ['<span>', '</span>'], ['<table><tr><td>', '</td></tr></table>'], ['<blockquote>', '</blockquote>']]) {
      const md = htmlToMarkdown(open.repeat(10_000) + 'deep text' + close.repeat(10_000));
      expect(md).toContain('deep text');
    }
  }, 60_000); // a bound that catches a hang, not a speed figure: a loaded 2-core box takes seconds
});

describe('whitespace and escaping (turndown semantics)', () => {
  test('inline whitespace collapses; block edges trim; pre keeps its text', () => {
    expect(htmlToMarkdown('<p>  a \n\t b  <b> c </b> d </p><pre>  x\n    y  </pre>')).toBe('a b **c** d\n\n```\n  x\n    y\n```');
  });

  test('whitespace at the edges of emphasis and links moves outside the markup', () => {
    expect(htmlToMarkdown('<p>x<strong> bold </strong>y <a href="https://a.test/"> link </a>z</p>')).toBe('x **bold** y [link](https://a.test/) z');
  });

  test('text inside code is not escaped; around it, it is', () => {
    expect(htmlToMarkdown('<p>a_b* <code>a_b*</code> <kbd>x*y</kbd></p>')).toBe('a_b\\* `a_b*` x\\*y');
  });

  test('code spans: delimiter longer than any backtick run, padding as turndown; a long span in linear time', () => {
    expect(htmlToMarkdown('<p><code>a `b` c</code></p>')).toBe('``a `b` c``');
    expect(htmlToMarkdown('<p><code>``x` y</code></p>')).toBe("``` ``x` y ```");
    // A span that starts but does not end with a space made the old test regex backtrack
    // quadratically (about 60 s for this one); the bound only catches that hang.
    const long = ' ' + 'a '.repeat(100_000) + 'b';
    const t0 = performance.now();
    expect(htmlToMarkdown(`<p>x <code>${long}</code></p>`).length).toBeGreaterThan(long.length);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  test('the newline an HTML parser drops after <pre> is dropped', () => {
    expect(htmlToMarkdown('<pre>\n\ncode\n</pre>')).toBe('```\ncode\n```');
  });
});

describe('deliberate differences from an HTML re-parse', () => {
  test('a link holding a link keeps the inner one (no nested link syntax)', () => {
    const out = htmlToMarkdown('<p>a <a href="https://a.test/o"><em><a href="https://a.test/i">term</a></em></a> b</p>');
    expect(out).toBe('a *[term](https://a.test/i)* b');
  });

  test('table rows cut off from their table still form a table; stray cells are plain text', () => {
    const doc = parseHtml('<table><tbody><tr><td>k1</td><td>v1</td></tr><tr><td>k2</td><td>v2</td></tr></tbody></table>');
    expect(nodesToMarkdown(findFirst(doc, 'tbody')!)).toBe('| k1 | v1 |\n| --- | --- |\n| k2 | v2 |');
    expect(nodesToMarkdown(findFirst(doc, 'tr')!.children)).toBe('k1v1');
  });
});
