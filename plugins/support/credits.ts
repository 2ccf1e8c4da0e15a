/**
 * Support plugin `credits`: 402 PAYMENT_REQUIRED, not enough credits. A crawl or batch that asked
 * for more pages than the balance covers is fixed by a smaller `limit` when the message names the
 * balance; otherwise credits must be added (`trawl teams credits <team> --add N`): an operator action,
 * so the validation re-runs the request unchanged and succeeds only once credits were added.
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
      class: 'credits', confidence: 'high', fixParameters: {}, validate: true,
      operatorAction: 'the operator adds credits to the team (`trawl teams credits <team> --add N`)',
      answer: `The team is out of credits for this request (${f.error.message}). The operator adds credits with \`trawl teams credits <team> --add N\`; no request parameter avoids the charge. The validation re-runs the request unchanged: it succeeds once credits were added.`,
    };
  },
});
