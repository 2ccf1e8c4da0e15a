/**
 * A gazetteer of given names for the PERSON detector: the first names of every locale of
 * @faker-js/faker (about 20 000 names from 77 locales: English, Polish, Portuguese, Yoruba, Hindi
 * transliterations …), minus words that English text uses as common words (compromise's lexicon tags
 * "will", "may", "rose", "royal", "general" as modal, noun or adjective; such a word is no cue).
 * Loaded on first use (about 0.2 s and 25 MB once per process), so `fast` mode and processes that
 * never redact do not pay for it.
 */
import type Nlp from 'compromise/two';

let nlp: typeof Nlp | undefined;

/**
 * compromise, loaded on first use: its module unpacks a lexicon (~150 ms of CPU) that a server
 * start-up, or a process that never redacts, should not pay.
 */
export function compromise(): typeof Nlp {
  return (nlp ??= require('compromise/two') as typeof Nlp);
}

let names: Set<string> | undefined;
let lexicon: Record<string, unknown> | undefined;

/** Whether compromise knows `lower` as a word that is not a name (a verb, noun, adjective, month …). */
export function isCommonWord(lower: string): boolean {
  lexicon ??= (compromise() as unknown as { world(): { model: { one: { lexicon: Record<string, unknown> } } } }).world().model.one.lexicon;
  const tag = lexicon[lower];
  return tag !== undefined && !/Name|Person/.test(String(tag));
}

/** Whether compromise knows `lower` as a place or an organization (`leeds`, `austin`, `georgia`). */
export function isPlaceWord(lower: string): boolean {
  isCommonWord(lower);
  return /City|Place|Country|Region|Organization|SportsTeam/.test(String(lexicon![lower] ?? ''));
}

/** The lower-cased names of one `person` field (`first_name`) over every locale, common words and places left out. */
function load(field: 'first_name'): Set<string> {
  // Synchronous on purpose: detectors are synchronous (Bun's require loads ES modules).
  const { allLocales } = require('@faker-js/faker') as typeof import('@faker-js/faker');
  const out = new Set<string>();
  const flat = (v: unknown): unknown[] => (Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v).flatMap(flat) : []);
  for (const def of Object.values(allLocales)) {
    for (const n of flat((def as { person?: Record<string, unknown> }).person?.[field])) {
      if (typeof n !== 'string' || !/^\p{Lu}[\p{L}'’-]+$/u.test(n)) continue;
      const lower = n.toLowerCase();
      if (!isCommonWord(lower) && !isPlaceWord(lower)) out.add(lower);
    }
  }
  return out;
}

/**
 * Whether `word` (as written, e.g. `Katarzyna`) is a known given name that is not also a common word.
 * Hyphenated names count when their first part is one (`Jean-Baptiste`, `Paul-Henri`).
 */
export function isGivenName(word: string): boolean {
  names ??= load('first_name');
  const lower = word.toLowerCase();
  return names.has(lower) || (lower.includes('-') && names.has(lower.slice(0, lower.indexOf('-'))));
}
