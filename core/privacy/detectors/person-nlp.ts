/**
 * Name candidates from compromise (a maintained rule-based NLP library; no model download), for the
 * PERSON detector's `accurate` and `aggressive` modes. compromise alone over-reports (brands such as
 * "Dr. Pepper", places named after people such as "boulevard Victor Hugo", a trailing "Sam,"), so a
 * candidate is kept only when it is two or three capitalized name words, does not start with a
 * common non-name word, and does not sit next to a street, station or building word.
 * Only lines holding two capitalized words in a row are given to compromise (about 9 µs a character
 * of such text on the bench machine); texts over `NLP_MAX_CHARS` skip it.
 */
import nlp from 'compromise';
import type { Finding } from '../types.ts';

/** Above this many characters of candidate lines, compromise is skipped (cue rules still run). */
export const NLP_MAX_CHARS = 100_000;
const PAIR = /\p{Lu}\p{Ll}+[ \t]+\p{Lu}\p{Ll}/u;
export const PLACE_BEFORE = /\b(?:rue|avenue|av\.|boulevard|bd|quai|street|st\.?|road|station|arrêt|m[ée]tro|place|platz|straße|allee|church|school|college|university|hospital|bridge|park|lyc[ée]e|coll[èe]ge|h[ôo]pital|pont|gare)\s*$/i;
export const PLACE_AFTER = /^\s*(?:street|st\b|road|rd\b|avenue|ave\b|station|church|school|college|university|hospital|bridge|park|square|hall|centre|center|stadium|airport|institute|foundation|prize|award|outlet|inc\b|ltd\b|gmbh|llc|corp)/i;

/**
 * Person-name spans proposed by compromise and kept by the filters above.
 * @param isName checks the cleaned span (two or three name words, not a stop word)
 */
export function nlpNames(text: string, isName: (s: string) => boolean): Finding[] {
  const out: Finding[] = [];
  // Blank out lines without a capitalized pair, keeping offsets.
  const lines = text.split('\n');
  const kept = lines.map((l) => (PAIR.test(l) ? l : ' '.repeat(l.length)));
  const input = kept.join('\n');
  if (!input.trim() || input.length > NLP_MAX_CHARS) return out;
  const people = nlp(input).people().json({ offset: true }) as { offset: { start: number; length: number } }[];
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
