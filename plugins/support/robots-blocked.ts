/**
 * Support plugin `robots-blocked`: a crawl whose pages robots.txt kept out (listed as
 * `robotsBlocked` by the errors endpoint). The fix is `ignoreRobotsTxt: true`, which the caller may
 * only use where the site's owner allows it.
 */
import { defineSupport } from '../../core/plugin.ts';

export default defineSupport({
  name: 'robots-blocked',
  diagnose(f) {
    const blocked = f.robotsBlocked ?? [];
    if (f.kind !== 'crawl' || blocked.length === 0 || f.request.ignoreRobotsTxt === true) return undefined;
    return {
      class: 'robots-blocked',
      confidence: 'high',
      fixParameters: { ignoreRobotsTxt: true },
      validate: true,
      answer: `robots.txt of the site disallows ${blocked.length} of the crawl's URLs (e.g. ${blocked[0]}), so they were not scraped (${f.completed ?? 0} pages were). Send "ignoreRobotsTxt": true to crawl them anyway, only where you are allowed to (your own site, or with the owner's consent); "robotsUserAgent" picks which robots.txt group applies.`,
    };
  },
});
