/**
 * Support plugin `unsafe-target`: the SSRF guard refused a private, loopback or otherwise reserved
 * address (UNSAFE_TARGET). No request parameter allows it; the operator may allow chosen private
 * addresses with TRAWL_ALLOW_PRIVATE_TARGETS (a list of addresses or CIDR blocks) or all of them.
 * The validation re-runs the request unchanged (refused before any fetch): `needs-operator` until the
 * operator's change is live.
 */
import { defineSupport } from '../../core/plugin.ts';

export default defineSupport({
  name: 'unsafe-target',
  diagnose(f) {
    if (f.error?.code !== 'UNSAFE_TARGET') return undefined;
    return {
      class: 'unsafe-target', confidence: 'high', fixParameters: {}, validate: true,
      operatorAction: 'the operator allows the address in TRAWL_ALLOW_PRIVATE_TARGETS and restarts Trawl',
      answer: `The target resolves to an address the SSRF guard refuses (${f.error.message}). No request parameter changes that. If this instance should reach it, the operator sets TRAWL_ALLOW_PRIVATE_TARGETS to that address or CIDR block (e.g. 10.0.0.5,192.168.1.0/24), or to true to allow every private address, and restarts Trawl.`,
    };
  },
});
