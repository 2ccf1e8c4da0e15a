/**
 * Support plugin `timeout`: a scrape that ran out of time (SCRAPE_TIMEOUT, or a 408). The fix
 * raises `timeout` (twice the old value, at least 30 s, at most the 300 s maximum); a page that
 * renders late may also want `waitFor`, which must stay under half the timeout.
 */
import { defineSupport } from '../../core/plugin.ts';

/** Largest `timeout` a scrape accepts, ms (interface.md scrape options). */
const MAX_TIMEOUT_MS = 300_000;
const DEFAULT_TIMEOUT_MS = 30_000;

export default defineSupport({
  name: 'timeout',
  diagnose(f) {
    const code = f.error?.code;
    if (code !== 'SCRAPE_TIMEOUT' && !(f.error?.status === 408 && code !== 'CONCURRENCY_QUEUE_TIMEOUT')) return undefined;
    const old = typeof f.request.timeout === 'number' ? f.request.timeout : DEFAULT_TIMEOUT_MS;
    if (old >= MAX_TIMEOUT_MS) {
      return {
        class: 'timeout', confidence: 'high', fixParameters: {}, validate: false,
        answer: `The scrape of ${f.url ?? 'the page'} timed out at the largest timeout (${MAX_TIMEOUT_MS} ms). The site is too slow to answer; try a smaller page, or proxy "enhanced" if it stalls deliberately.`,
      };
    }
    const timeout = Math.min(MAX_TIMEOUT_MS, Math.max(old * 2, DEFAULT_TIMEOUT_MS));
    return {
      class: 'timeout',
      confidence: code === 'SCRAPE_TIMEOUT' ? 'high' : 'medium',
      fixParameters: { timeout },
      validate: true,
      answer: `The scrape of ${f.url ?? 'the page'} did not finish within its timeout of ${old} ms (${code}). Raise "timeout" to ${timeout} ms; if the content appears late, add "waitFor" (ms, at most half the timeout).`,
    };
  },
});
