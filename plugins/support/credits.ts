/**
 * Support plugin `credits`: 402 PAYMENT_REQUIRED, not enough credits. A crawl or batch that asked
 * for more pages than the balance covers is fixed by a smaller `limit` when the message names the
 * balance; otherwise credits must be added (`trawl teams credits <team> --add N`).
 */
import { defineSupport } from '../../core/plugin.ts';

const REMAINING = /team has (\d+) remaining/;

export default defineSupport({
  name: 'credits',
  diagnose(f) {
    if (f.error?.code !== 'PAYMENT_REQUIRED') return undefined;
    const m = REMAINING.exec(f.error.message);
    const remaining = m ? Number(m[1]) : undefined;
    if (f.kind === 'crawl' && remaining !== undefined && remaining > 0) {
      return {
        class: 'credits', confidence: 'high', fixParameters: { limit: remaining }, validate: true,
        answer: `The team has ${remaining} credits left, fewer than the crawl's "limit". Crawl at most ${remaining} pages ("limit": ${remaining}), or have the operator add credits (\`trawl teams credits <team> --add N\`).`,
      };
    }
    return {
      class: 'credits', confidence: 'high', fixParameters: {}, validate: false,
      answer: `The team is out of credits for this request (${f.error.message}). The operator adds credits with \`trawl teams credits <team> --add N\`; no request parameter avoids the charge.`,
    };
  },
});
