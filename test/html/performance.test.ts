/**
 * Speed guards: large pages must convert in seconds, not minutes (stack.md: turndown manages a few
 * MiB/s; a badly serialized page used to take minutes). The bounds catch hangs and quadratic walks
 * (minutes), not speed: the 4 MiB page takes ~4 s of cleaning on a quiet 2-core box, and a 20 s bound
 * failed once beside a type check, so each bound is ~15x the quiet time. Speed is measured in bench/.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { cleanHtml } from '../../parsers/html/clean.ts';
import { htmlToMarkdown } from '../../formats/markdown/convert.ts';

/** A ~`bytes` page shaped like a long article: sections, paragraphs with links, lists, tables, code. */
function bigPage(bytes: number): string {
  const parts: string[] = ['<html><head><title>Big</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>Big page</h1>'];
  let size = parts[0].length;
  for (let i = 0; size < bytes; i++) {
    const section = `<section><h2>Section ${i}</h2>
      <p>Paragraph ${i} has <a href="/link/${i}">a link</a>, <em>emphasis</em>, <code>code_${i}</code> and enough words, commas, and clauses to look like prose &amp; entities &lt;tags&gt;.</p>
      <ul><li>Item one of ${i}</li><li>Item two with <strong>bold</strong><ul><li>nested ${i}</li></ul></li></ul>
      <table><tr><th>Key</th><th>Value</th></tr><tr><td>k${i}</td><td>v${i} | pipe</td></tr></table>
      <pre><code class="language-js">function f${i}(a, b) {\n  return a &lt; b &amp;&amp; b &gt; 0; // &lt;/script&gt;\n}</code></pre>
      <blockquote><p>Quoted line ${i}.</p></blockquote></section>`;
    parts.push(section);
    size += section.length;
  }
  parts.push('</article></main><footer>Footer</footer></body></html>');
  return parts.join('');
}

function timed<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const out = fn();
  return [out, performance.now() - t];
}

describe('large pages', () => {
  test('a 4 MiB page: clean (main and full) and convert well within bounds', () => {
    const html = bigPage(4 * 1024 * 1024);
    expect(html.length).toBeGreaterThan(4 * 1024 * 1024);
    const [main, cleanMs] = timed(() => cleanHtml(html, { url: 'https://site.example/big', onlyMainContent: true }));
    const [md, mdMs] = timed(() => htmlToMarkdown(main));
    const [, fullMs] = timed(() => cleanHtml(html, { url: 'https://site.example/big', onlyMainContent: false }));
    expect(md).toContain('## Section 0');
    expect(md).toContain('```js\nfunction f0(a, b) {\n  return a < b && b > 0; // </script>\n}\n```');
    expect(md).toContain('| k0 | v0 \\| pipe |');
    expect(md).not.toContain('Footer');
    expect(cleanMs + fullMs).toBeLessThan(60_000);
    expect(mdMs).toBeLessThan(60_000);
  }, 240_000);

  test('pathological shapes: one huge text node, many tiny links, deep inline nesting', () => {
    const huge = `<p>${'word '.repeat(400_000)}</p>`;
    const links = `<div>${Array.from({ length: 40_000 }, (_, i) => `<a href="/l${i}">l${i}</a>`).join(' ')}</div>`;
    const inline = '<span>'.repeat(5000) + 'inline' + '</span>'.repeat(5000);
    for (const html of [huge, links, inline]) {
      const [md, ms] = timed(() => htmlToMarkdown(cleanHtml(html, { url: 'https://site.example/', onlyMainContent: true })));
      expect(md.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(60_000);
    }
  }, 240_000);

  const nodeAll = '/usr/share/doc/nodejs/api/all.html';
  test.skipIf(!existsSync(nodeAll))('real 5.8 MB page (nodejs-doc all.html) converts in seconds', async () => {
    const html = await Bun.file(nodeAll).text();
    const [md, ms] = timed(() => htmlToMarkdown(cleanHtml(html, { url: 'https://nodejs.example/api/all.html', onlyMainContent: true })));
    expect(md).toContain('# ');
    expect(md.length).toBeGreaterThan(1_000_000);
    expect(ms).toBeLessThan(90_000);
  }, 180_000);
});
