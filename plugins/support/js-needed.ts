/**
 * Support plugin `js-needed`: a scrape answered 200 with (almost) no markdown: the page builds its
 * content with JavaScript late (after the browser's own settle wait), or the plain HTTP engine got
 * nothing. The fix `waitFor` (5 s, at most half the `timeout`) makes the scrape use the browser
 * engine and wait that long after load.
 */
import { defineSupport } from '../../core/plugin.ts';

/** Wait the fix asks for, ms. */
const WAIT_MS = 5_000;
const DEFAULT_TIMEOUT_MS = 30_000;

export default defineSupport({
  name: 'js-needed',
  diagnose(f) {
    const doc = f.document;
    if (f.kind !== 'scrape' || !doc || doc.statusCode >= 400 || f.request.waitFor || f.request.actions) return undefined;
    const timeout = typeof f.request.timeout === 'number' ? f.request.timeout : DEFAULT_TIMEOUT_MS;
    const waitFor = Math.min(WAIT_MS, Math.floor(timeout / 2));
    return {
      class: 'js-needed',
      confidence: 'medium',
      fixParameters: { waitFor },
      validate: true,
      answer: `The page answered ${doc.statusCode} but gave only ${doc.contentChars} characters of content: its content is most likely built by JavaScript, which a plain fetch does not run. Add "waitFor": ${waitFor} (ms) so the browser waits for it (at most half of "timeout"; raise "timeout" to wait longer), or a "wait" action for a selector.`,
    };
  },
});
