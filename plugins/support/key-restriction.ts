/**
 * Support plugin `key-restriction`: a 403 from the API key's restrictions (FORBIDDEN naming the
 * formats or endpoint groups the key allows). A format restriction is fixed by asking only the allowed
 * formats the request had (or the first allowed one); an endpoint group restriction has no parameter
 * fix: an admin grants the group (`trawl keys restrict <key> --endpoints ...`) or another key is used;
 * the validation re-runs the request unchanged and succeeds only once the group was granted.
 */
import { defineSupport } from '../../core/plugin.ts';

const ALLOWED_FORMATS = /Formats allowed for this key: ([^.]+)\./;
const ALLOWED_GROUPS = /not allowed to call the (\S+) endpoints\. Endpoint groups allowed for this key: ([^.]+)\./;

const names = (list: string) => list.split(',').map((s) => s.trim()).filter(Boolean);
const typeOf = (f: unknown) => (typeof f === 'string' ? f : (f as { type?: string } | null)?.type);

export default defineSupport({
  name: 'key-restriction',
  diagnose(f) {
    if (f.error?.code !== 'FORBIDDEN') return undefined;
    const groups = ALLOWED_GROUPS.exec(f.error.message);
    if (groups) {
      return {
        class: 'key-restriction', confidence: 'high', fixParameters: {}, validate: true,
        operatorAction: `an admin adds the ${groups[1]} endpoint group to this key (\`trawl keys restrict <key> --endpoints ${[...names(groups[2]!), groups[1]].join(',')}\`)`,
        answer: `This API key is restricted to the endpoint groups ${groups[2]} and may not call the ${groups[1]} endpoints. No request parameter changes that: an admin adds the group (\`trawl keys restrict <key> --endpoints ${[...names(groups[2]!), groups[1]].join(',')}\`), or use a key without that restriction.`,
      };
    }
    const formats = ALLOWED_FORMATS.exec(f.error.message);
    if (!formats) return undefined;
    const allowed = names(formats[1]!);
    const asked = Array.isArray(f.request.formats) ? (f.request.formats as unknown[]) : [];
    const kept = asked.filter((x) => allowed.includes(typeOf(x) ?? ''));
    const next = kept.length > 0 ? kept : [allowed[0]];
    const dropped = asked.map(typeOf).filter((t) => t && !allowed.includes(t));
    const actions = Array.isArray(f.request.actions) && f.request.actions.length > 0;
    return {
      class: 'key-restriction',
      confidence: 'high',
      fixParameters: actions ? { formats: next, actions: [] } : { formats: next },
      validate: true,
      answer: `This API key may only request the formats ${allowed.join(', ')}; the request asked for ${dropped.length ? dropped.join(', ') : 'content through actions'}. Ask for ${next.map(typeOf).join(', ')} only${actions ? ' and no content actions' : ''}, or have an admin widen the key (\`trawl keys restrict <key> --formats ...\`).`,
    };
  },
});
