/**
 * Support plugin `rate-limit`: 429, a request rate (team, key, keyless IP) or session limit was hit.
 * No parameter fixes it; the fix is the wait its `Retry-After` names. The validation waits what is
 * left of it (the time since the failure counts) and re-runs the request unchanged; a wait longer
 * than the validation budget is reported untested, with when to ask again.
 */
import { defineSupport } from '../../core/plugin.ts';

export default defineSupport({
  name: 'rate-limit',
  diagnose(f) {
    if (f.error?.status !== 429) return undefined;
    const retry = f.error.headers?.['Retry-After'] ?? f.error.headers?.['retry-after'];
    const seconds = Number(retry);
    const left = Number.isFinite(seconds) && seconds > 0 ? Math.max(0, seconds * 1000 - (Date.now() - (f.at ?? Date.now()))) : undefined;
    return {
      class: 'rate-limit', confidence: 'high', fixParameters: {}, validate: left !== undefined,
      ...(left !== undefined ? { waitMs: left } : {}),
      answer: `The request was over a rate limit (${f.error.message}). Wait ${retry ? `${retry} s (Retry-After)` : 'as the Retry-After header says'} and send it again, spread requests out, or have the operator raise TRAWL_RATE_LIMIT_PER_MINUTE / TRAWL_KEY_RATE_LIMIT_PER_MINUTE.`,
    };
  },
});
