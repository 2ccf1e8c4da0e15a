/**
 * PHONE detector: number-like runs (digits with spaces, dots, hyphens, slashes, brackets, an optional
 * `+`/`00` and an extension) validated with libphonenumber-js (full metadata, every region).
 * - An international number (`+44 20 …`, `0049 …`) counts when libphonenumber calls it valid
 *   (`aggressive`: possible).
 * - A national number counts when it is valid in one of the common regions AND has a phone shape
 *   (`(415) 555-0132`, `415-555-0132`, a trunk `0` with grouped digits) or a cue word (tel, phone,
 *   fax, mobile, call, Telefon, téléphone …) stands before it. With both, `possible` is enough.
 * - Never: dates, times, versions, IP addresses, or a run right after ISBN/EAN/order/invoice/ref.
 * `fast` mode skips libphonenumber and accepts `+` numbers and the shapes above by pattern.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { Detector, Finding, PiiMode } from '../types.ts';
import { after, before, matches } from '../context.ts';

const CANDIDATE = /(?<![\w.,/#+-])(?:\+|00)?[ \t]?\(?\d[\d \t\u00a0().\/-]{4,24}\d(?:[ \t]*(?:x|ext\.?|extension|poste|Durchwahl)[ \t]*\d{1,5})?(?![\w]|[.,]\d)/gi;
/** Regions tried for a national number, most common first. */
const REGIONS: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'NL', 'BE', 'CH', 'AT', 'IE', 'ES', 'IT', 'IN'];
const CUE = /(?:\b(?:tel|tél|telephone|téléphone|telefon|telefax|fax|phone|ph|call|calls|mobile|mob|cell|portable|handy|mobil|whatsapp|sms|text|hotline|helpline|switchboard|line|appelez|appeler|anrufen|nummer|number|numéro|on|at|ring|dial|contact|direct)\b|\b[tmfp]\b|[☎📞])[\s.:()\-–—|*"'=]*$/;
const NEGATIVE = /\b(?:isbn(?:-1[03])?|issn|ean|upc|sku|order|invoice|inv|ref|reference|mls#?|id|no|nr|n°|case|serial|sn|part|imei|build|version|v|po|hrb|rcs|npi|tax|vat|ust|account|acct|iban|routing|tracking|parcel|zip|code|budget|page|pages|employee)\b(?:\s+(?:number|no\.?|nr\.?|#|id))?[\s.:#-]*$/;
/** Company and tax registers whose numbers look like phone numbers (SIREN, HRB, VAT …). */
const REGISTRY = /\b(?:rcs|siren|siret|hrb|hra|registered|registration|register|immatricul\w*|handelsregister|company no|vat|ust-?id|steuernummer)\b/;
const DATE = /^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})$/;
const NANP = /^(?:\+?1[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4}$/;
const TRUNK = /^0\(?\d{1,5}\)?(?:[ \t/.-]+\d{1,5}){1,5}$/;

function clean(raw: string): string {
  return raw.replace(/[\s\u00a0]+$/, '').replace(/^[\s\u00a0]+/, '');
}

function validIn(number: string, regions: (CountryCode | undefined)[], loose: boolean): boolean {
  for (const r of regions) {
    const n = parsePhoneNumberFromString(number, r);
    if (n && (loose ? n.isPossible() : n.isValid())) return true;
  }
  return false;
}

/** Finds phone numbers; see the file header for the rules per mode. */
export function detectPhones(text: string, mode: PiiMode): Finding[] {
  const out: Finding[] = [];
  for (const m of matches(CANDIDATE, text)) {
    let raw = m[0];
    const lead = raw.length - raw.trimStart().length;
    raw = clean(raw);
    if (raw.endsWith(')') && !raw.includes('(')) raw = raw.slice(0, -1);
    const start = m.index + lead;
    const end = start + raw.length;
    const digits = raw.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15 + 5) continue;
    const base = raw.replace(/[ \t]*(?:x|ext\.?|extension|poste|Durchwahl)[ \t]*\d{1,5}$/i, '');
    if (DATE.test(base) || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(base)) continue;
    const pre = before(text, start, 30);
    if ((NEGATIVE.test(pre) || REGISTRY.test(text.slice(Math.max(0, start - 60), start).toLowerCase())) && !/^(?:\+|00)/.test(base)) continue;
    if (/^\d+(?:\.\d+){1,3}$/.test(base) && !/^\d{3}\.\d{3}\.\d{4}$/.test(base)) continue; // versions
    const cue = CUE.test(pre) || /^\s*(?:\(|,)?\s*(?:is our|ext|x\d)/.test(after(text, end, 12));
    const international = /^(?:\+|00)/.test(base);
    const shaped = NANP.test(base) || TRUNK.test(base);
    if (mode === 'fast') {
      if (international || shaped) out.push({ type: 'PHONE', start, end });
      continue;
    }
    const loose = mode === 'aggressive';
    let ok = false;
    if (international) ok = validIn(base.replace(/^00/, '+'), [undefined], loose) || (cue && validIn(base.replace(/^00/, '+'), [undefined], true));
    else if (shaped || cue) ok = validIn(base, REGIONS, loose) || (cue && shaped && validIn(base, REGIONS, true));
    // A seven-digit local number (`555-0142`) only right next to a phone cue.
    if (!ok && !international && cue && /^\d{3}[-. ]\d{4}$/.test(base)) ok = true;
    if (ok) out.push({ type: 'PHONE', start, end });
  }
  return out;
}

export default { type: 'PHONE', detect: detectPhones } satisfies Detector;
