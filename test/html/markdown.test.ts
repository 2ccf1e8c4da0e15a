/** Markdown shape: headings, lists, code, tables, links, images, base64, whitespace, escaping. */
import { describe, expect, test } from 'bun:test';
import { htmlToMarkdown } from '../../formats/markdown/convert.ts';
import { escapeMarkdown, removeBase64FromMarkdown, tidyMarkdown } from '../../formats/markdown/text.ts';

const md = (html: string, removeBase64Images = true) => htmlToMarkdown(html, { removeBase64Images });

/** Markdown with fenced code removed, for "no leftover HTML" checks. */
const outsideCode = (s: string) => s.replace(/```[\s\S]*?```/g, '');

describe('blocks', () => {
  test('ATX headings, paragraphs, hr, blockquote, br', () => {
    const out = md('<h1>Title</h1><p>One<br>Two</p><hr><h3>Sub <em>head</em></h3><blockquote><p>Quote</p></blockquote><h2> </h2>');
    expect(out).toBe('# Title\n\nOne  \nTwo\n\n---\n\n### Sub *head*\n\n> Quote');
  });

  test('nested lists use "-" and indent to the content column; ordered lists honour start', () => {
    const out = md('<ul><li>a<ul><li>a1</li><li>a2<ol start="3"><li>x</li><li>y</li></ol></li></ul></li><li>b</li><li></li></ul>');
    expect(out).toBe('- a\n  - a1\n  - a2\n    3. x\n    4. y\n- b');
  });

  test('list items holding paragraphs keep them under the bullet', () => {
    const out = md('<ol><li><p>First para</p><p>Second para</p></li><li><p>Next</p></li></ol>');
    expect(out).toBe('1. First para\n\n   Second para\n\n2. Next');
  });

  test('fenced code with the language from class names; pre without code; br and line divs', () => {
    expect(md('<pre><code class="language-ts">const a = 1;\nconst b = 2;</code></pre>')).toBe('```ts\nconst a = 1;\nconst b = 2;\n```');
    expect(md('<div class="highlight-python3 notranslate"><div class="highlight"><pre><span>print</span>(1)</pre></div></div>')).toBe('```python3\nprint(1)\n```');
    expect(md('<pre class="brush: js">a<br>b</pre>')).toBe('```js\na\nb\n```');
    expect(md('<pre><div class="line">x = 1</div><div class="line">y = 2</div></pre>')).toBe('```\nx = 1\ny = 2\n```');
    expect(md('<pre><code>has ``` inside</code></pre>')).toBe('````\nhas ``` inside\n````');
    expect(md('<p>Use <code>a_b</code> or <code>x`y</code>.</p>')).toBe('Use `a_b` or ``x`y``.');
  });
});

describe('tables', () => {
  test('a table with th gets a GFM header row', () => {
    expect(md('<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>')).toBe(
      '| A | B |\n| --- | --- |\n| 1 | 2 |',
    );
  });

  test('without th the first row is the header; colspan, short rows, pipes and line breaks', () => {
    const out = md('<table><tr><td>h1</td><td>h2</td><td>h3</td></tr><tr><td colspan="2">wide</td><td>a|b</td></tr><tr><td>only<br>one</td></tr></table>');
    expect(out).toBe('| h1 | h2 | h3 |\n| --- | --- | --- |\n| wide | | a\\|b |\n| only one | | |');
  });

  test('caption, inline markup and code inside cells', () => {
    const rows = '<tr><td>b</td><td>c</td></tr>'.repeat(3);
    const out = md(`<table><caption>Prices</caption><tr><th>Item</th><th>Note</th></tr><tr><td><a href="https://x.test/a">A</a></td><td><pre>x\ny</pre></td></tr>${rows}</table>`);
    expect(out).toBe('Prices\n\n| Item | Note |\n| --- | --- |\n| [A](https://x.test/a) | `x y` |' + '\n| b | c |'.repeat(3));
  });

  test('layout tables render as content, never as pipes', () => {
    const single = md('<table><tr><td><p>Column one text</p></td></tr><tr><td><p>More</p></td></tr></table>');
    expect(single).toBe('Column one text\n\nMore');
    const nested = md('<table><tr><td>nav</td><td><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></td></tr></table>');
    expect(nested).toBe('nav\n\n| a | b |\n| --- | --- |\n| 1 | 2 |');
    const rich = md('<table><tr><th>Tip</th></tr><tr><td><ul><li>one</li><li>two</li></ul></td><td>x</td></tr></table>');
    expect(rich).not.toContain('|');
  });
});

describe('inline', () => {
  test('inline links without titles; empty links dropped; card links become one line', () => {
    const out = md('<p><a href="https://a.test/x" title="T">text</a> <a href="https://a.test/e"></a><a href="https://a.test/e2"> </a><a>plain</a></p><a href="https://a.test/card"><h3>Card title</h3><p>Card text</p></a>');
    expect(out).toBe('[text](https://a.test/x) plain\n\n[Card title Card text](https://a.test/card)');
    expect(out).not.toContain('[](');
    expect(md('<a href="https://a.test/s"><img src="https://a.test/t.jpg" alt=""> Story title</a>')).toBe('[Story title](https://a.test/s)');
    expect(md('<a href="https://a.test/s"><img src="https://a.test/t.jpg" alt="Logo"></a>')).toBe('[![Logo](https://a.test/t.jpg)](https://a.test/s)');
  });

  test('link and image URLs with spaces or parentheses stay valid', () => {
    expect(md('<a href="https://a.test/Foo_(bar) baz">w</a>')).toBe('[w](https://a.test/Foo_%28bar%29%20baz)');
    expect(md('<img src="https://a.test/i (1).png" alt="pic [x]">')).toBe('![pic \\[x\\]](https://a.test/i%20%281%29.png)');
  });

  test('images; base64 images replaced by a placeholder keeping the alt text, unless disabled', () => {
    const html = '<p><img src="https://a.test/i.png" alt="An image"><img alt="nothing"><img src="data:image/png;base64,iVBORw0KGgo=" alt="Chart"></p>';
    expect(md(html)).toBe('![An image](https://a.test/i.png)![Chart](<Base64-Image-Removed>)');
    expect(md(html, false)).toBe('![An image](https://a.test/i.png)![Chart](data:image/png;base64,iVBORw0KGgo=)');
    expect(removeBase64FromMarkdown('![a](data:image/gif;base64,R0lG) ![b](https://x.test/b.png)')).toBe('![a](<Base64-Image-Removed>) ![b](https://x.test/b.png)');
  });

  test('emphasis, strike-through, task lists', () => {
    expect(md('<p><strong>bold</strong> <em>it</em> <del>gone</del> <s>old</s></p>')).toBe('**bold** *it* ~~gone~~ ~~old~~');
    expect(md('<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>')).toBe('- [x] done\n- [ ] todo');
  });

  test('escaping only where markdown would change meaning', () => {
    expect(md('<p>snake_case and file_name.py, 2 * 3, [1] and C:\\Users</p>')).toBe('snake_case and file_name.py, 2 \\* 3, [1] and C:\\Users');
    expect(md('<p>_leading underscore_ and *stars*</p>')).toBe('\\_leading underscore\\_ and \\*stars\\*');
    expect(md('<p># not a heading</p><p>1. not a list</p><p>- not a bullet</p>')).toBe('\\# not a heading\n\n1\\. not a list\n\n\\- not a bullet');
    expect(md('<p>Use &lt;div&gt; tags and [text](url) literally</p>')).toBe('Use \\<div> tags and \\[text\\](url) literally');
    expect(escapeMarkdown('a `tick`')).toBe('a \\`tick\\`');
  });
});

describe('output hygiene', () => {
  test('no runs of blank lines, no trailing spaces, no leftover HTML, no empty bullets', () => {
    const out = md('<div><p>a</p><div></div><p></p><p>   </p><br><br><br><p>b</p><ul><li> </li><li><span></span></li></ul><section><article><p>c</p></article></section><center>d</center><font>e</font></div>');
    expect(out).toBe('a\n\nb\n\nc\n\nd\n\ne');
    expect(outsideCode(out)).not.toMatch(/<\/?[a-z][^>]*>/i);
  });

  test('tidy keeps code blocks untouched and hard breaks only before text', () => {
    expect(tidyMarkdown('a  \nb\n\n\n\n```\nx  \n\n\n\ny\n```\n\n\n- \nc  ')).toBe('a  \nb\n\n```\nx  \n\n\n\ny\n```\n\nc');
  });

  test('unknown and inline-only wrappers leave text readable', () => {
    expect(md('<custom-el>Hello <x-y>world</x-y></custom-el>')).toBe('Hello world');
    expect(md('<dl><dt>Term</dt><dd>Definition</dd></dl>')).toBe('Term\n\nDefinition');
  });
});
