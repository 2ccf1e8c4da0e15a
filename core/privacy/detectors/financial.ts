/**
 * FINANCIAL detector: payment card numbers (13–19 digits with a known issuer prefix and a valid Luhn
 * check digit), IBANs (country length and mod-97 checksum, via ibantools), US ABA routing numbers
 * (their 3-7-1 checksum, next to a "routing"/"ABA" cue) and bank account numbers next to an
 * "account"/"Konto"/"compte" cue. `fast` mode skips the checksums.
 */
import { isValidIBAN, electronicFormatIBAN } from 'ibantools';
import type { Detector, Finding, PiiMode } from '../types.ts';
import { before, matches } from '../context.ts';

const CARD = /(?<![\w.,-])\d(?:[ -]?\d){12,18}(?![\w]|[.,-]\d)/g;
const IBAN = /\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30}\b/g;
const NINE = /(?<![\w.,-])\d{9}(?![\w]|[.,-]\d)/g;
const ACCOUNT = /\b(?:account|acct|a\/c|konto|kontonummer|compte)(?:\s+(?:number|no\.?|nr\.?|#|numéro))?[\s.:#]*(\d{6,17})\b/gi;
const NEGATIVE = /\b(?:order|invoice|serial|sn|part|imei|tracking|parcel|ref|reference|isbn|ean|upc|id|sku|case|loyalty|gift)\b[^\n]{0,12}$/;

/** Luhn checksum over a digit string. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Whether a digit string has the issuer prefix and length of a major card network. */
export function cardBrand(d: string): boolean {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p4 = Number(d.slice(0, 4));
  if (d[0] === '4') return n === 16 || n === 19 || n === 13;
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16;
  if (p2 === 34 || p2 === 37) return n === 15;
  if (d.startsWith('6011') || d.startsWith('65') || (p4 >= 6440 && p4 <= 6499)) return n >= 16 && n <= 19;
  if (p4 >= 3528 && p4 <= 3589) return n >= 16 && n <= 19;
  if (p2 === 36 || p2 === 38 || (p4 >= 3000 && p4 <= 3059)) return n >= 14 && n <= 19;
  if (p2 === 62) return n >= 16 && n <= 19;
  return false;
}

/** ABA routing number checksum (3-7-1 weights). */
export function abaChecksum(d: string): boolean {
  const w = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(d[i]) * w[i % 3]!;
  return sum % 10 === 0 && d !== '000000000';
}

/** Finds card numbers, IBANs, routing and account numbers; see the file header. */
export function detectFinancial(text: string, mode: PiiMode): Finding[] {
  const out: Finding[] = [];
  const check = mode !== 'fast';
  for (const m of matches(CARD, text)) {
    const digits = m[0].replace(/\D/g, '');
    const seps = new Set(m[0].match(/[ -]/g) ?? []);
    if (seps.size > 1 || !cardBrand(digits)) continue;
    if (check && !luhn(digits)) continue;
    if (NEGATIVE.test(before(text, m.index, 30))) continue;
    if (digits.length === 13 && !/card|visa|kart|carte/i.test(before(text, m.index, 40))) continue;
    out.push({ type: 'FINANCIAL', start: m.index, end: m.index + m[0].length });
  }
  for (const m of matches(IBAN, text)) {
    if (check && !isValidIBAN(electronicFormatIBAN(m[0]) ?? '')) continue;
    out.push({ type: 'FINANCIAL', start: m.index, end: m.index + m[0].length });
  }
  for (const m of matches(NINE, text)) {
    if (!/\b(?:routing|aba|rtn|transit)\b[^\n]{0,20}$/i.test(before(text, m.index, 30))) continue;
    if (check && !abaChecksum(m[0])) continue;
    out.push({ type: 'FINANCIAL', start: m.index, end: m.index + m[0].length });
  }
  for (const m of matches(ACCOUNT, text)) {
    const start = m.index + m[0].length - m[1]!.length;
    if (out.some((f) => f.start <= start && f.end > start)) continue;
    out.push({ type: 'FINANCIAL', start, end: start + m[1]!.length });
  }
  return out;
}

export default { type: 'FINANCIAL', detect: detectFinancial } satisfies Detector;
