/**
 * `onlyCleanContent` acts (it used to be accepted and ignored): with no model the deterministic
 * cleaner drops cookie notices, share bars, link-only navigation and repeated lines, with a warning;
 * with a model its cleaned markdown is used, and a page over the model's limit keeps the original
 * with a warning. The json format reads the cleaned markdown.
 */
import { describe, expect, test } from 'bun:test';
import { buildWith } from './build.ts';
import { scriptedModel } from './scripted-model.ts';
import { cleanMarkdown } from '../../core/text/clean.ts';

const page = `<body><div><a href="/a">Home</a> | <a href="/b">Shop</a> | <a href="/c">Blog</a></div>
<main><h1>Growing tomatoes</h1><p>Tomatoes need six hours of sun a day.</p><p>Water them deeply twice a week.</p>
<p>We use cookies to improve your experience. By continuing you accept our cookie policy.</p>
<p>Share on Facebook | Twitter | Email</p><p>Related posts</p><p>Related posts</p><p>© 2026 Garden Co. All rights reserved.</p></main></body>`;

describe('onlyCleanContent', () => {
  test('no model: boilerplate lines dropped, content kept, warning', async () => {
    const plain = await buildWith(page, ['markdown'], { scrape: { onlyMainContent: false } });
    const doc = await buildWith(page, ['markdown'], { scrape: { onlyMainContent: false, onlyCleanContent: true } });
    expect(plain.markdown).toContain('cookies');
    const md = doc.markdown as string;
    expect(md).toContain('Tomatoes need six hours of sun a day.');
    expect(md).toContain('Water them deeply twice a week.');
    for (const gone of ['cookies', 'Share on Facebook', 'All rights reserved', '[Home]']) expect(md).not.toContain(gone);
    expect(md.match(/Related posts/g)?.length).toBe(1);
    expect(doc.warning).toMatch(/onlyCleanContent.*No language model/);
  });

  test('with a model: the model cleans; over its limit the original is kept with a warning', async () => {
    const model = scriptedModel(() => '# Growing tomatoes\n\nTomatoes need six hours of sun a day.');
    const doc = await buildWith(page, ['markdown'], { scrape: { onlyCleanContent: true }, model });
    expect(doc.markdown).toBe('# Growing tomatoes\n\nTomatoes need six hours of sun a day.');
    expect(doc.warning).toBeUndefined();
    expect(model.calls[0].purpose).toBe('option:onlyCleanContent');
    const tiny = scriptedModel(() => 'never', 100);
    const kept = await buildWith(page, ['markdown'], { scrape: { onlyCleanContent: true }, model: tiny });
    expect(kept.markdown).toContain('Water them deeply');
    expect(kept.warning).toMatch(/exceeds what the model can clean/);
    expect(tiny.calls).toHaveLength(0);
  });

  test('code blocks are never touched', () => {
    const md = '```\nShare on Facebook | Twitter\n```\n\nText';
    expect(cleanMarkdown(md).markdown).toBe(md);
  });
});
