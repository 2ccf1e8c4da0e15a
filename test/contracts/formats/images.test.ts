/** Contract cases of the `images` format (formats/images.ts). */
import { expect } from 'bun:test';
import plugin from '../../../formats/images.ts';
import { testFormat } from '../suites/format.ts';

const page = `<html><head>
<base href="http://127.0.0.1:9/site/">
<meta property="og:image" content="/og.png"><meta name="twitter:image" content="https://cdn.test/tw.jpg">
<link rel="icon" href="favicon.ico"><link rel="apple-touch-icon" href="/touch.png"><link rel="stylesheet" href="/s.css">
</head><body>
<img src="a.jpg" srcset="a-400.jpg 400w, a-1200.jpg 1200w, a-800.jpg 800w">
<picture><source srcset="p-1x.webp 1x, p-2x.webp 2x"><img src="p.jpg"></picture>
<img src="data:image/png;base64,AAAA"><img src="/og.png"><img src="javascript:x()"><img>
</body></html>`;

testFormat(plugin, [
  {
    name: 'every image in document order, absolute, once each; data: left out',
    page,
    expect: (doc) =>
      expect(doc.images).toEqual([
        'http://127.0.0.1:9/og.png',
        'https://cdn.test/tw.jpg',
        'http://127.0.0.1:9/site/favicon.ico',
        'http://127.0.0.1:9/touch.png',
        'http://127.0.0.1:9/site/a.jpg',
        'http://127.0.0.1:9/site/a-1200.jpg',
        'http://127.0.0.1:9/site/p-2x.webp',
        'http://127.0.0.1:9/site/p.jpg',
      ]),
  },
  { name: 'a page without images gives []', page: '<p>none</p>', expect: (doc) => expect(doc.images).toEqual([]) },
  { name: 'with markdown and links', page, with: ['markdown', 'links'], expect: (doc) => {
    expect((doc.images as string[]).length).toBe(8);
    expect(typeof doc.markdown).toBe('string');
    expect(Array.isArray(doc.links)).toBe(true);
  } },
]);
