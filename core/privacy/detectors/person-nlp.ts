/**
 * Name candidates from compromise (a maintained rule-based NLP library; no model download), for the
 * PERSON detector's `accurate` and `aggressive` modes. compromise alone over-reports (brands such as
 * "Dr. Pepper", places named after people such as "boulevard Victor Hugo", a trailing "Sam,"), so a
 * candidate is kept only when it is two or three capitalized name words, does not start with a
 * common non-name word, and does not sit next to a street, station or building word.
 * compromise is the slowest part of redaction (a fixed cost of about a millisecond a call, then a cost
 * per character of the text it is given), so it
 * is given only the sentences that hold a capitalized pair the cheaper rules left unexplained: not
 * inside a name already found, and with no common word or place in it ("The Acme", "Contact Us",
 * "Berlin Rust"); the rest of the text is blanked (offsets kept). Texts whose blanked input is over
 * `NLP_MAX_CHARS` skip it.
 */
import type { Finding } from '../types.ts';
import { compromise, isCommonWord } from './given-names.ts';

/** Above this many characters of candidate lines, compromise is skipped (cue rules still run). */
export const NLP_MAX_CHARS = 100_000;
const PAIRS = /(?<!\p{L})(\p{Lu}\p{Ll}+)[ \t]+(\p{Lu}\p{Ll}+)/gu;
export const PLACE_BEFORE = /\b(?:rue|avenue|av\.|boulevard|bd|quai|street|st\.?|road|station|arrêt|m[ée]tro|place|platz|straße|allee|church|school|college|university|hospital|bridge|park|lyc[ée]e|coll[èe]ge|h[ôo]pital|pont|gare)\s*$/i;
export const PLACE_AFTER = /^\s*(?:street|st\b|road|rd\b|avenue|ave\b|station|church|school|college|university|hospital|bridge|park|square|hall|centre|center|stadium|airport|institute|foundation|prize|award|outlet|inc\b|ltd\b|gmbh|llc|corp)/i;

/**
 * `text` with everything blanked (offsets kept) but the sentences around capitalized pairs that are
 * not inside `found` and not opened by a common word; empty when nothing is left.
 */
function unexplained(text: string, found: readonly Finding[]): string {
  const keep: [number, number][] = [];
  PAIRS.lastIndex = 0;
  for (let m = PAIRS.exec(text); m; m = PAIRS.exec(text)) {
    const at = m.index;
    PAIRS.lastIndex = at + m[1]!.length; // pairs overlap: "Ann Lee Smith"
    if (isCommonWord(m[1]!.toLowerCase()) || isCommonWord(m[2]!.toLowerCase()) || found.some((f) => at >= f.start && at < f.end)) continue;
    if (keep.length && at < keep[keep.length - 1]![1]) continue;
    const from = Math.max(text.lastIndexOf('\n', at), text.lastIndexOf('. ', at)) + 1;
    const stop = text.slice(at).search(/\n|[.!?](?:\s|$)/);
    keep.push([from, stop < 0 ? text.length : at + stop + 1]);
  }
  if (!keep.length) return '';
  let input = '';
  let at = 0;
  for (const [a, b] of keep) {
    input += text.slice(at, a).replace(/[^\n]/g, ' ') + text.slice(a, b);
    at = b;
  }
  return input + text.slice(at).replace(/[^\n]/g, ' ');
}

/**
 * Person-name spans proposed by compromise and kept by the filters above.
 * @param isName checks the cleaned span (two or three name words, not a stop word)
 * @param found  names the cue rules and the gazetteer found already (compromise skips them)
 */
export function nlpNames(text: string, isName: (s: string) => boolean, found: readonly Finding[] = []): Finding[] {
  const out: Finding[] = [];
  const input = unexplained(text, found);
  if (!input.trim() || input.length > NLP_MAX_CHARS) return out;
  const people = compromise()(input).match('#Person+').json({ offset: true }) as { offset: { start: number; length: number } }[];
  for (const p of people) {
    const raw = text.slice(p.offset.start, p.offset.start + p.offset.length);
    const m = raw.match(/\p{Lu}[\p{L}'’-]*(?:[ \t]+\p{Lu}[\p{L}'’-]*){1,2}/u);
    if (!m) continue;
    const name = m[0].replace(/['’]s$/, '');
    const start = p.offset.start + m.index!;
    if (!isName(name)) continue;
    if (PLACE_BEFORE.test(text.slice(Math.max(0, start - 20), start))) continue;
    if (PLACE_AFTER.test(text.slice(start + name.length, start + name.length + 20))) continue;
    out.push({ type: 'PERSON', start, end: start + name.length });
  }
  return out;
}
