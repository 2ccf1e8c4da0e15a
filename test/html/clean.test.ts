/** cleanHtml: always-on cleanup, URLs, includeTags/excludeTags, fingerprints, robustness. */
import { describe, expect, test } from 'bun:test';
import { cleanHtml, pageFingerprints } from '../../parsers/html/clean.ts';
import { BoilerplateTracker } from '../../parsers/html/fingerprints.ts';
import { validateSelectors } from '../../parsers/html/selectors.ts';
import { TrawlError } from '../../core/errors.ts';

const URL_ = 'https://site.example/dir/page.html';
const full = (html: string, extra: Record<string, unknown> = {}) => cleanHtml(html, { url: URL_, onlyMainContent: false, ...extra });

describe('always-on cleanup', () => {
  test('drops scripts, styles, noscript, templates, iframes, svg, comments and form controls', () => {
    const out = full(`<body><script>var a=1</script><style>p{}</style><noscript>enable js</noscript><template><p>t</p></template>
      <iframe src="/ad"></iframe><svg><text>icon</text></svg><!-- secret --><p>Kept text</p><select><option>Albania</option></select>
      <textarea>typed</textarea><input type="text" value="v"></body>`);
    expect(out).toContain('<p>Kept text</p>');
    for (const gone of ['var a', 'p{}', 'enable js', '<template', 'iframe', 'icon', 'secret', 'Albania', 'typed', '<input']) expect(out).not.toContain(gone);
  });

  test('drops hidden elements but keeps a hidden wrapper that holds most of the page', () => {
    const out = full(`<body><p>Visible</p><div hidden>h1</div><span aria-hidden="true">h2</span><div style="color:red; display: none">h3</div>
      <div style="visibility:hidden">h4</div><input type="hidden" value="h5"></body>`);
    expect(out).toContain('Visible');
    for (const h of ['h1', 'h2', 'h3', 'h4', 'h5']) expect(out).not.toContain(h);
    const wrapped = full(`<body><div style="display:none" id="app"><p>The whole article lives in a wrapper hidden until scripts run.</p></div><p>x</p></body>`);
    expect(wrapped).toContain('The whole article lives');
  });

  test('makes href/src/srcset absolute, respects <base href>, drops javascript: hrefs, keeps mailto and data', () => {
    const out = full(`<head><base href="/base/"></head><body><a href="x.html">x</a><a href="//cdn.test/y">y</a><a href="javascript:void(0)">js</a>
      <a href="mailto:a@b.test">m</a><img src="i.png" srcset="i1.png 1x, /i2.png 2x"><img src="data:image/png;base64,AAA="></body>`);
    expect(out).toContain('href="https://site.example/base/x.html"');
    expect(out).toContain('href="https://cdn.test/y"');
    expect(out).toContain('<a>js</a>');
    expect(out).toContain('href="mailto:a@b.test"');
    expect(out).toContain('src="https://site.example/base/i.png"');
    expect(out).toContain('srcset="https://site.example/base/i1.png 1x, https://site.example/i2.png 2x"');
    expect(out).toContain('src="data:image/png;base64,AAA="');
  });

  test('without a page URL (undefined or empty: an upload, raw HTML) relative URLs stay as written, nothing throws', () => {
    const page = `<body><a href="x.html">x</a><a href="HTTPS://cdn.test/y">y</a><a href="JavaScript:go()">js</a>
      <img src="i.png" srcset="i1.png 1x, /i2.png 2x"><img data-src="/lazy.png" src="placeholder.gif"></body>`;
    for (const url of [undefined, '']) {
      const out = cleanHtml(page, { url: url as unknown as string, onlyMainContent: false });
      expect(out).toContain('href="x.html"');
      expect(out).toContain('<a>js</a>');
      expect(out).toContain('srcset="i1.png 1x, /i2.png 2x"');
      expect(out).toContain('src="/lazy.png"');
      // An absolute URL is normalised when no base is given, kept as written when the base is unusable.
      expect(out).toContain(url === undefined ? 'href="https://cdn.test/y"' : 'href="HTTPS://cdn.test/y"');
      const base = cleanHtml(`<head><base href="/b/"></head>${page}`, { url: url as unknown as string, onlyMainContent: false });
      expect(base).toContain('href="x.html"');
    }
  });

  test('promotes lazy-loading image sources over placeholders', () => {
    const out = full(`<body><img src="data:image/gif;base64,R0lGOD" data-src="/real.jpg" alt="a"><img data-srcset="/s.jpg 400w, /l.jpg 1200w" alt="b"></body>`);
    expect(out).toContain('src="https://site.example/real.jpg"');
    expect(out).toContain('src="https://site.example/l.jpg"');
  });

  test('removes heading permalinks and code line numbers', () => {
    const out = full(`<body><h2 id="s">Setup<a class="headerlink" href="#s">¶</a></h2><pre><span class="lineno">1</span>code<button>Copy</button></pre></body>`);
    expect(out).toContain('<h2 id="s">Setup</h2>');
    expect(out).toContain('<pre>code</pre>');
  });

  test('encodes markup characters when serializing (code samples stay text)', () => {
    const out = full('<body><pre>if (a &lt; b &amp;&amp; c &gt; d) {}</pre><p>&lt;script&gt;alert(1)&lt;/script&gt;</p></body>');
    expect(out).toContain('a &lt; b &amp;&amp; c &gt; d');
    expect(out).toContain('&lt;script&gt;');
    expect(out).not.toContain('<script>');
  });

  test('survives pathological nesting and odd input', () => {
    const deep = '<div>'.repeat(20_000) + 'deep text' + '</div>'.repeat(20_000);
    expect(full(deep)).toContain('deep text');
    expect(cleanHtml(deep, { url: URL_, onlyMainContent: true })).toContain('deep text');
    expect(full('')).toBe('');
    expect(full('just text, no tags')).toBe('just text, no tags');
    expect(cleanHtml('<p>unclosed <b>bold <i>both', { url: URL_, onlyMainContent: true })).toContain('both');
  });
});

describe('includeTags / excludeTags', () => {
  const page = `<body><header>Site</header><div class="main"><h1>Title</h1><p class="lead">Lead</p><div class="ad">Ad</div><p>Body</p></div>
    <article id="second"><p>Other</p></article><footer>Foot</footer></body>`;

  test('includeTags keeps only matching elements, outermost, in document order', () => {
    const out = cleanHtml(page, { url: URL_, onlyMainContent: true, includeTags: ['#second', '.main', 'p'] });
    expect(out.indexOf('Title')).toBeGreaterThanOrEqual(0);
    expect(out.indexOf('Title')).toBeLessThan(out.indexOf('Other'));
    expect(out).not.toContain('Site');
    expect(out).not.toContain('Foot');
    expect(out.match(/Lead/g)?.length).toBe(1);
  });

  test('excludeTags removes matches, also combined with includeTags', () => {
    const out = full(page, { excludeTags: ['.ad', 'footer'] });
    expect(out).not.toContain('Ad<');
    expect(out).not.toContain('Foot');
    expect(out).toContain('Body');
    const both = full(page, { includeTags: ['.main'], excludeTags: ['.lead'] });
    expect(both).toContain('Body');
    expect(both).not.toContain('Lead');
  });

  test('an invalid selector is a 400 TrawlError', () => {
    expect(() => full(page, { includeTags: ['div['] })).toThrow(TrawlError);
    try {
      validateSelectors(['p', '::nope('], 'excludeTags');
      throw new Error('not thrown');
    } catch (e) {
      expect(e).toBeInstanceOf(TrawlError);
      expect((e as TrawlError).status).toBe(400);
      expect((e as TrawlError).message).toContain('excludeTags');
    }
    expect(() => validateSelectors(['article', '.a > .b', 'div:not(.x)', '[data-x="1"]'])).not.toThrow();
  });
});

describe('onlyMainContent switch', () => {
  const page = `<body><nav><a href="/a">Home</a><a href="/b">About</a></nav><article><h1>Headline here</h1>
    <p>First paragraph of the story, long enough to count as a real paragraph of text for the extractor to score.</p>
    <p>Second paragraph of the story, again with plenty of words, commas, and clauses, so that it scores well.</p></article>
    <footer><p>Copyright 2024 Example Corp, all rights reserved, do not copy this page.</p></footer></body>`;

  test('false keeps navigation and footer, true drops them', () => {
    expect(full(page)).toContain('Home');
    expect(full(page)).toContain('Copyright');
    const main = cleanHtml(page, { url: URL_, onlyMainContent: true });
    expect(main).toContain('Headline here');
    expect(main).toContain('Second paragraph');
    expect(main).not.toContain('Home');
    expect(main).not.toContain('Copyright');
  });
});

describe('repeated boilerplate fingerprints', () => {
  const page = (n: number) => `<body><div class="x1"><h1>Post ${n}</h1><p>Unique body text number ${n}, written for this page only, with enough words to be a paragraph.</p>
    <p>More unique words for page ${n}: every page of the site has different content here, long enough to score.</p>
    <div class="x2">Support our journalism: become a member today and get our weekly letter.</div></div></body>`;

  test('blocks seen on many pages of a site are removed when passed to cleanHtml', () => {
    const tracker = new BoilerplateTracker();
    for (let i = 0; i < 5; i++) tracker.addPage(pageFingerprints(page(i), URL_));
    const known = tracker.known();
    expect(known.size).toBeGreaterThan(0);
    const html = page(9);
    expect(cleanHtml(html, { url: URL_, onlyMainContent: true })).toContain('Support our journalism');
    const cleaned = cleanHtml(html, { url: URL_, onlyMainContent: true, boilerplate: known });
    expect(cleaned).not.toContain('Support our journalism');
    expect(cleaned).toContain('Unique body text number 9');
  });

  test('tracker needs enough pages and a share of them', () => {
    const t = new BoilerplateTracker();
    t.addPage(['a', 'b']);
    t.addPage(['a']);
    expect(t.known().size).toBe(0);
    t.addPage(['a']);
    expect([...t.known()]).toEqual(['a']);
  });
});

describe('tag soup never throws', () => {
  test('random markup through cleanHtml (both modes) and htmlToMarkdown', async () => {
    const { htmlToMarkdown } = await import('../../formats/markdown/convert.ts');
    const tags = ['div', 'p', 'a', 'table', 'tr', 'td', 'th', 'ul', 'li', 'ol', 'pre', 'code', 'span', 'h1', 'h2', 'img', 'br', 'article', 'nav', 'section', 'b', 'i', 'blockquote', 'dl', 'dt', 'dd', 'figure', 'svg', 'script', 'caption'];
    const attrs = ['', ' class="content"', ' class="nav menu"', ' href="/x"', ' href="javascript:x"', ' src="data:image/png;base64,AA=="', ' style="display:none"', ' colspan="99999"', ' id="comments"', ' hidden'];
    let seed = 42;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    for (let round = 0; round < 40; round++) {
      let html = '';
      for (let i = 0; i < 300; i++) {
        const r = rnd(10);
        const tag = tags[rnd(tags.length)];
        if (r < 4) html += `<${tag}${attrs[rnd(attrs.length)]}>`;
        else if (r < 6) html += `</${tag}>`;
        else if (r < 9) html += ['text, more text. ', '&amp;&lt;&#x26;', '| pipe ', '`tick` ', '\n\n', '**', '[x](y)'][rnd(7)];
        else html += ['<!--', '-->', '<![CDATA[', ']]>', '<', '>', '"', "'"][rnd(8)];
      }
      for (const onlyMainContent of [true, false]) {
        const cleaned = cleanHtml(html, { url: URL_, onlyMainContent });
        expect(typeof htmlToMarkdown(cleaned)).toBe('string');
      }
    }
  });
});
