/**
 * Support plugin `anti-bot`: a scrape the target turned away (401, 403, 429 or a 503 challenge page,
 * as core/pipeline/proxy.ts `looksBlocked` reads them) without the enhanced proxy. The fix sends it
 * through the enhanced proxy (`proxy: "enhanced"`, TRAWL_PROXY_ENHANCED); `auto` would try the basic
 * route first and move on only when blocked.
 */
import { defineSupport } from '../../core/plugin.ts';

const BLOCKED = new Set([401, 403, 429, 503]);

export default defineSupport({
  name: 'anti-bot',
  diagnose(f, ctx) {
    const doc = f.document;
    if (f.kind !== 'scrape' || !doc || !BLOCKED.has(doc.statusCode) || f.request.proxy === 'enhanced') return undefined;
    const configured = Boolean(ctx.config.proxies.enhanced);
    return {
      class: 'anti-bot',
      confidence: 'medium',
      fixParameters: configured ? { proxy: 'enhanced' } : {},
      validate: configured,
      answer: `The site answered ${doc.statusCode} to the scrape of ${f.url ?? 'the page'}, which is how anti-bot protection turns automated clients away.` +
        (configured
          ? ' Send it through the enhanced proxy ("proxy": "enhanced"), or "proxy": "auto" to try the basic route first.'
          : ' This instance has no enhanced proxy: the operator sets TRAWL_PROXY_ENHANCED (http://user:pass@host:port or socks5://...), then "proxy": "enhanced" sends scrapes through it.'),
    };
  },
});
