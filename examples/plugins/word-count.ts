/**
 * Example format plugin (docs/plugins.md): `wordCount`, the number of words of the page's markdown
 * and the minutes it takes to read them at 200 words a minute. Request it as
 * `"formats": ["wordCount"]`; the document gets `wordCount: { words, readingMinutes }`.
 */
import { defineFormat } from 'trawl/plugin';

/** Words a minute an adult reads, the usual estimate. */
const WORDS_PER_MINUTE = 200;

export default defineFormat({
  name: 'wordCount',
  // The core computes markdown first (even when the request does not ask for it) and hands it over.
  needs: ['markdown'],
  // Reads only its input: the core may run it on a content thread.
  pure: true,
  produce(input) {
    const markdown = String(input.outputs.markdown ?? '');
    // Words of the text, not of the markdown syntax: drop link targets, images and markup characters.
    const text = markdown.replace(/!\[[^\]]*\]\([^)]*\)/g, ' ').replace(/\]\([^)]*\)/g, ' ').replace(/[#*_>`|[\]-]+/g, ' ');
    const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
    return { wordCount: { words, readingMinutes: Math.max(1, Math.round(words / WORDS_PER_MINUTE)) } };
  },
});
