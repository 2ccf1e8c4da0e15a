/**
 * Support plugin `invalid-pattern`: a crawl refused with 400 because an `includePaths` or
 * `excludePaths` pattern does not compile as an RE2 regular expression (look-around, backreferences,
 * a syntax error; core/crawl/patterns.ts names the field and index). The fix is the list without
 * that pattern; the answer says how to rewrite it.
 */
import { defineSupport } from '../../core/plugin.ts';

const WHERE = /^(includePaths|excludePaths)\[(\d+)\] "/;

export default defineSupport({
  name: 'invalid-pattern',
  diagnose(f) {
    if (f.error?.code !== 'BAD_REQUEST' || (f.kind !== 'crawl' && f.kind !== 'map')) return undefined;
    const m = WHERE.exec(f.error.message);
    const list = m ? f.request[m[1]!] : undefined;
    if (!m || !Array.isArray(list)) return undefined;
    const field = m[1]!;
    const index = Number(m[2]);
    const kept = list.filter((_, i) => i !== index);
    return {
      class: 'invalid-pattern',
      confidence: 'high',
      fixParameters: { [field]: kept },
      validate: true,
      answer: `${field}[${index}] ${JSON.stringify(list[index])} is not a pattern Trawl can compile: ${f.error.message} Patterns are RE2 regular expressions (no look-around, no backreferences; escape literal "(", "[", "." and "?" with a backslash). Without it the crawl runs: ${field} ${JSON.stringify(kept)}; then add a corrected pattern.`,
    };
  },
});
