/**
 * Support plugin `rate-limit`: 429, a request rate (team, key, keyless IP) or session limit was hit.
 * No parameter fixes it; the answer gives the `Retry-After` wait and the limit's variable.
 */
import { defineSupport } from '../../core/plugin.ts';

export default defineSupport({
  name: 'rate-limit',
  diagnose(f) {
    if (f.error?.status !== 429) return undefined;
    const retry = f.error.headers?.['Retry-After'] ?? f.error.headers?.['retry-after'];
    return {
      class: 'rate-limit', confidence: 'high', fixParameters: {}, validate: false,
      answer: `The request was over a rate limit (${f.error.message}). Wait ${retry ? `${retry} s (Retry-After)` : 'as the Retry-After header says'} and send it again, spread requests out, or have the operator raise TRAWL_RATE_LIMIT_PER_MINUTE / TRAWL_KEY_RATE_LIMIT_PER_MINUTE.`,
    };
  },
});
