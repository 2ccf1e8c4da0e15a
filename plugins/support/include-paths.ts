/**
 * Support plugin `include-paths`: a crawl with `includePaths` (or `excludePaths`) that finished with
 * no page, because no discovered URL matched (patterns are regular expressions on the path, or on
 * the full URL with `regexOnFullURL`). The fix drops the path filters (`includePaths: []`).
 */
import { defineSupport } from '../../core/plugin.ts';

const listed = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export default defineSupport({
  name: 'include-paths',
  diagnose(f) {
    if (f.kind !== 'crawl' || f.status !== 'completed' || (f.completed ?? 0) > 0) return undefined;
    const include = listed(f.request.includePaths);
    const exclude = listed(f.request.excludePaths);
    if (include.length === 0 && exclude.length === 0) return undefined;
    const fix: Record<string, unknown> = {};
    if (include.length > 0) fix.includePaths = [];
    if (exclude.length > 0) fix.excludePaths = [];
    return {
      class: 'include-paths',
      confidence: 'medium',
      fixParameters: fix,
      validate: true,
      answer: `The crawl of ${f.url ?? 'the site'} finished with 0 pages while it had ${include.length ? `includePaths ${JSON.stringify(include)}` : ''}${include.length && exclude.length ? ' and ' : ''}${exclude.length ? `excludePaths ${JSON.stringify(exclude)}` : ''}: no URL it found (the start URL included) passed them. The patterns are regular expressions matched against the URL path (e.g. "^/blog/.*"), or the full URL with "regexOnFullURL": true. Drop the filters (${JSON.stringify(fix)}) to crawl, then narrow them to paths you saw.`,
    };
  },
});
