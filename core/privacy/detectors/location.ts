/**
 * LOCATION detector: street addresses and postcodes in the common formats of the US, the UK, Germany
 * and France (and English-style `12 Example Street` addresses anywhere):
 * - US: `1425 Market Street[, Suite 200][, San Francisco], CA 94103`, ZIP+4; a ZIP alone only after a
 *   state code.
 * - UK: full postcodes (`SW1A 2AA`, `M3 3HF`), with the street and town before them joined in.
 * - DE: `Lindenstraße 42`, `Leopoldstr. 8`, `Große Bergstraße 219`, `10969 Berlin`.
 * - FR: `12 rue de la Paix`, `45 avenue Jean Jaurès`, `75002 Paris`.
 * City or country names alone are not reported. Adjacent parts of one address merge into one span.
 */
import type { Detector, Finding, PiiMode } from '../types.ts';
import { matches } from '../context.ts';

const CAP = String.raw`[A-ZÀ-ÖØ-Þ][\p{L}'’.-]*`;
const EN_SUFFIX = String.raw`(?:Street|St|Road|Rd|Avenue|Ave|Av|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Square|Sq|Terrace|Row|Way|Parkway|Pkwy|Highway|Hwy|Grove|Close|Crescent|Gardens|Mews|Walk|Hill|Circle|Cir|Trail|Plaza)`;
const UNIT = String.raw`(?:(?:Suite|Ste|Unit|Apt|Apartment|Flat|Floor|Fl|Level|Room|#)\s*[\w-]+|\d+(?:st|nd|rd|th)\s+Floor)`;
const EN_STREET = String.raw`(?:${UNIT},?\s+)?\d{1,5}[A-Za-z]?\s+(?:${CAP}\s+){0,3}${EN_SUFFIX}\b\.?(?:\s+(?:NE|NW|SE|SW|N|S|E|W)\b)?`;
const EN_STREET_NE = String.raw`(?:${UNIT},?\s+)?\d{1,5}\s+(?:NE|NW|SE|SW|N|S|E|W)\s+(?:${CAP}\s+){0,3}${EN_SUFFIX}\b\.?`;
const STATES = 'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY';
const US_TAIL = String.raw`(?:,?\s+(?:${UNIT}))?(?:,\s*(?:${CAP}\s?){1,3})?,?\s+(?:${STATES})\s+\d{5}(?:-\d{4})?\b`;
const UK_POSTCODE = String.raw`\b(?:GIR 0AA|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})\b`;
const DE_SUFFIX = String.raw`(?:straße|strasse|str\.|weg|allee|platz|gasse|ring|damm|ufer|chaussee|steig|markt)`;
const DE_STREET = String.raw`(?:(?:${CAP}|Große|Kleine|Alte|Neue)\s+)?[A-ZÄÖÜ][\p{L}-]*${DE_SUFFIX}\s*\d{1,4}\s?[a-z]?\b`;
const TOWN = String.raw`\p{Lu}[\p{Ll}'’]+(?:-\p{Lu}?[\p{Ll}'’]+)*`;
const PLZ_CITY = String.raw`\b\d{5}[ \t]+${TOWN}(?:[ \t]+(?:am|an der|im|sur|en|lès)[ \t]+${TOWN})?`;
/** Dutch postcodes (`1015 CJ Amsterdam`), common enough next to the four formats above. */
const NL_POSTCODE = String.raw`\b[1-9]\d{3}[ \t]?[A-Z]{2}[ \t]+${TOWN}`;
const FR_STREET = String.raw`\b\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?:rue|avenue|av\.|boulevard|bd|place|quai|chemin|allée|impasse|cours|route|square|passage)\s+(?:[\p{L}'’-]+\s?){1,5}?(?=[,.;)\n]|\s\d{5}|$)`;

const PATTERNS: RegExp[] = [
  new RegExp(`(?:${EN_STREET}|${EN_STREET_NE})(?:${US_TAIL})?(?:,\\s*(?:${CAP}\\s?){1,3})?(?:,?\\s+${UK_POSTCODE})?`, 'gu'),
  new RegExp(`(?:${CAP}\\s){0,3}${UK_POSTCODE}`, 'gu'),
  new RegExp(`\\b(?:${STATES})\\s+\\d{5}(?:-\\d{4})?\\b`, 'g'),
  new RegExp(`${DE_STREET}(?:,?\\s+${PLZ_CITY})?`, 'gu'),
  new RegExp(`${FR_STREET}(?:,?\\s+${PLZ_CITY})?`, 'giu'),
  new RegExp(PLZ_CITY, 'gu'),
  new RegExp(NL_POSTCODE, 'gu'),
];
/** Capitalized words that follow a five-digit number without being a town. */
const NOT_TOWN = /^\d{5}\s+(?:Downloads?|Units?|Items?|Users?|Views?|Reviews?|Records?|Rows?|Pages?|Words?|Euro|EUR|USD|GBP|Dollars?|Mitarbeiter|Kunden|Stück)\b/;
/** Tokens before a UK postcode that are not part of an address. */
const UK_BAD = /^(?:[A-Z]{2,}\s)+$/;

/** Finds addresses and postcodes; see the file header. */
export function detectLocations(text: string, mode: PiiMode): Finding[] {
  const raw: Finding[] = [];
  for (const re of PATTERNS) {
    for (const m of matches(re, text)) {
      let start = m.index;
      let s = m[0];
      if (NOT_TOWN.test(s)) continue;
      if (re === PATTERNS[1]) {
        // Drop capitalized words that are not a town, keep the postcode.
        const pc = s.match(new RegExp(`${UK_POSTCODE}$`))![0];
        const lead = s.slice(0, s.length - pc.length);
        if (UK_BAD.test(lead) || /\b(?:VAT|Ref|No)\b/i.test(lead)) {
          start += lead.length;
          s = pc;
        }
      }
      raw.push({ type: 'LOCATION', start, end: start + s.trimEnd().length });
    }
  }
  void mode;
  return merge(raw, text);
}

/** Merges overlapping spans and spans separated only by a comma, space or line break. */
function merge(found: Finding[], text: string): Finding[] {
  const sorted = found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && (f.start <= last.end || /^[\s,]{0,3}$/.test(text.slice(last.end, f.start)))) last.end = Math.max(last.end, f.end);
    else out.push({ ...f });
  }
  return out;
}

export default { type: 'LOCATION', detect: detectLocations } satisfies Detector;
