/**
 * PERSON detector: personal names where the text gives a cue, never a bare capitalized pair.
 * - An honorific or title before the name: Mr, Mrs, Ms, Dr, Prof, Cllr, Herr, Frau, Mme, M. …
 * - A cue phrase: "written by", "by", "contact", "from:", "customer:", "agent", "reporting by",
 *   "rédigé par", "vertreten durch", greetings ("Dear", "Hi"), "ship to:", professions and family
 *   words ("Rechtsanwalt", "neighbour", "daughter"), role words ("Geschäftsführerin") …
 * - A verb of saying or a relative clause after the name: "Ann Lee said", "Ann Lee, who …".
 * - A signature: the line after "Best regards," / "Sincerely," / "Mit freundlichen Grüßen" …
 * - A list item or line `Name — founder` / `Name, senior partner`.
 * - An email's local part (`margaret.ellison@` names Margaret Ellison; `k.tran@` a K… Tran).
 * - `accurate`/`aggressive`: names proposed by compromise (person-nlp.ts), filtered; two or three
 *   name words opening with a known given name (given-names.ts: `Katarzyna Wiśniewska`,
 *   `Sarah J.`); a given name alone after a greeting (`Hi Tobias,`) or in the middle of a sentence
 *   where no capitalized word follows (`ring Deborah on …`, `at Alan's house`).
 * Every further occurrence of a name found once is reported too, and so are its given name alone and
 * its family name after an honorific or a first name. A name is two or three capitalized words
 * (hyphens, apostrophes and `Mc`/`O'` family names allowed), or initials and a family name after an
 * honorific (`Mrs P. Hughes`, `Mr and Mrs D. Fairbairn`); `aggressive` mode accepts one word after an
 * honorific.
 */
import type { DetectOptions, Detector, Finding, PiiMode } from '../types.ts';
import { matches } from '../context.ts';
import { nlpNames, PLACE_AFTER, PLACE_BEFORE } from './person-nlp.ts';
import { isGivenName, isPlaceWord } from './given-names.ts';

const WORD = String.raw`(?:Mc|Mac|Fitz)?\p{Lu}(?:\p{Ll}+(?:[-'’]\p{L}\p{Ll}+)*|['’]\p{Lu}\p{Ll}+)`;
const NAME = String.raw`${WORD}(?:[ \t]+${WORD}){1,2}`;
const HONORIFIC = String.raw`(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Cllr|Rev|Herr|Frau|Mme|Mlle|Monsieur|Madame|M\.)\.?`;
/** Honorifics of a couple (`Mr and Mrs`), then initials and a family name: `Mrs P. Hughes`. */
const INITIALED = new RegExp(String.raw`(?<!\p{L})${HONORIFIC}(?:[ \t]+(?:and|&|und|et)[ \t]+${HONORIFIC})?[ \t]+((?:\p{Lu}\.[ \t]*){1,2}${WORD})`, 'gu');
/** `written by` → `[wW]ritten by`: the cue matches at a sentence start too; the name stays case-sensitive. */
function initialEitherCase(cue: string): string {
  return /^[a-zà-ÿ]/.test(cue) ? `[${cue[0]}${cue[0]!.toUpperCase()}]${cue.slice(1)}` : cue;
}
const CUES = [
  'written by', 'posted by', 'reporting by', 'reported by', 'edited by', 'listed by', 'photos? by', 'interview with', 'in conversation with', 'thank(?:s| you)(?:\\*\\*|__)? to', 'by',
  'contact', 'contacts?:', 'from:', 'to:', 'customer:', 'client:', 'agent', 'author:', 'authors?', 'speaker:', 'ansprechpartner(?:in)?:?', 'kontakt:',
  'geschäftsführer(?:in)?:?', 'inhaber(?:in)?:?', 'vertreten durch(?: die| den)?(?: geschäftsführer(?:in)?)?', 'rédigé par', 'écrit par', 'par',
  'practitioner', 'manager:', 'makler:', 'directeur(?: de la publication)?\s*:', 'directrice(?: de la publication)?\s*:', 'collègue', 'colleague', 'dear',
  'hi', 'hello', 'hey', 'thank you(?: for [^,\n]{1,30})?,', 'ship to:', 'bill to:', 'deliver to:', 'attn:?', 'c/o', 'said', 'says', 'according to',
  'rechtsanwalt', 'rechtsanwältin', 'notar(?:in)?', 'steuerberater(?:in)?', 'avocat(?:e)?', 'maître', 'attorney', 'lawyer', 'solicitor', 'barrister',
  'nurse', 'mayor', 'councillor', 'neighbour', 'neighbor', 'daughter', 'son', 'wife', 'husband', 'mother', 'father', 'brother', 'sister', 'widow',
].map(initialEitherCase).join('|');
const CUED = new RegExp(String.raw`(?:(?<!\p{L})${HONORIFIC}|(?<![\p{L}])(?:${CUES}))(?:[ \t]+|[ \t]*\n[ \t]*)(?:${HONORIFIC}[ \t]+)?(${NAME})(?:[ \t]+(?:and|und|et|&)[ \t]+(${NAME}))?`, 'gu');
const TITLED = new RegExp(String.raw`(?<!\p{L})${HONORIFIC}[ \t]+(${WORD})(?![ \t]+[A-Z])`, 'gu');
const SIGN_OFF = new RegExp(String.raw`(?:regards|sincerely|cheers|thanks|best|yours(?: truly| faithfully| sincerely)?|grüßen|grüße|cordialement|salutations),?[ \t]*\n+[ \t]*(${NAME})[ \t]*$`, 'gimu');
const ROLE_LINE = new RegExp(
  String.raw`^[ \t]*(?:[-*•][ \t]+)?(?:\*\*|__)?(${NAME})(?:\*\*|__)?(?:[ \t]*\([^)\n]{1,60}\))?(?:,[ \t]+|[ \t]+[—–-][ \t]+)(?:[a-z-]+ ){0,2}(?:founder|partner|developer|engineer|designer|manager|director|ceo|cto|cfo|coo|editor|author|consultant|analyst|officer|md|do|agent|president|head)\b`,
  'gimu',
);
/** A name before a verb of saying or a relative clause: `Ann Lee, who …`, `Ann Lee said`. */
const CLAUSE = new RegExp(String.raw`(?<!\p{L})(${NAME})(?:,[ \t]+(?:who|whose|aged|née|geb\.)\b|[ \t]+(?:said|says|told|wrote|added|explained)\b)`, 'gu');
/** Two or three name words (the last may be an initial: `Sarah J.`); kept when the first is a given name. */
const CANDIDATE = new RegExp(String.raw`(?<![\p{L}\p{N}@._/-])(${WORD})((?:[ \t]+(?:${WORD}|\p{Lu}\.(?![ \t]*\p{Lu}\p{Ll}))){1,2})`, 'gu');
/** A given name alone after a greeting or thanks: `Hi Tobias,`, `thanks Priya from …`. */
const GREETED = new RegExp(String.raw`(?<!\p{L})(?:[Hh]i|[Hh]ello|[Hh]ey|[Dd]ear|[Tt]hanks|[Tt]hank you|[Cc]heers|[Ww]elcome|[Cc]ongrat(?:ulation)?s)[,!]?[ \t]+(${WORD})(?![ \t]*\p{Lu})`, 'gu');
/** A capitalized word inside a sentence (after a lower-case word), with no capitalized word after it. */
const MID_SENTENCE = new RegExp(String.raw`(?<=\p{Ll}[,;:]?[ \t]+|\p{Ll}[ \t]*\()(${WORD})(?=['’]s\b|[ \t]+\p{Ll})`, 'gu');
/** A given name alone on the line after a sign-off line ending in a comma. */
const SIGNED = new RegExp(String.raw`,[ \t]*\n[ \t]*(${WORD})[ \t]*$`, 'gmu');
/** Words that make a capitalized group a place or an organization, not a person. */
const NOT_SURNAME = /^(?:Street|St|Road|Rd|Avenue|Ave|Lane|Way|Drive|Close|Square|Place|Station|Park|Hall|Bridge|Church|School|College|University|Hospital|Centre|Center|Stadium|Airport|Institute|Foundation|Prize|Award|Sessions|Labs?|Group|Team|Inc|Ltd|GmbH|LLC|Corp|Bank|House|Press|Times|News|City|County|River|Lake|Island|Beach|Valley|Garden|Gardens|Line|Market|Road|Hotel|Museum|Library|Theatre|Theater|Club|Cup|League|Day|Week|Solicitors|Partners|Associates|Brothers|Sons|Consulting|Studios?|Systems|Solutions|Services|Holdings|Capital|Ventures|Media|Records|Software|Technologies|Festival|Tech|State|Memorial|Highway|Wing|Tower|Building|Fund|Trust|Council|Committee|Association|Society|Company|Motors|Airlines|Foods|Pharma|Show|Awards|Lecture|Scholarship)$/;
const EMAIL_LOCAL = /(?<![\w.+-])([a-z]+|[a-z])[._]([a-z]{2,})(?:\d*)@/gi;
/** Capitalized words that start a cued phrase but are not names. */
const NOT_NAME = /^(?:The|Our|Your|This|That|Us|We|Team|Support|Sales|Customer|Mon|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Room|Level|Street|Google|Microsoft|Apple|Amazon|Email|Phone|Tel|All|Any|Some|Acme|Council|Cllr|People|Operations|Version|Order|Chapter|Page|Madame|Monsieur)\b/;

const FULL_NAME = new RegExp(`^${NAME}$`, 'u');
/** Whether `s` is two or three name words not starting with a common non-name word. */
function isName(s: string): boolean {
  return FULL_NAME.test(s) && !NOT_NAME.test(s);
}

function add(out: Finding[], start: number, name: string) {
  if (NOT_NAME.test(name)) return;
  out.push({ type: 'PERSON', start, end: start + name.length });
}

/** Finds names with cues; see the file header. */
export function detectPersons(text: string, mode: PiiMode, options: DetectOptions = {}): Finding[] {
  const out: Finding[] = [];
  for (const m of matches(CUED, text)) {
    const first = m[1]!;
    add(out, m.index + m[0].indexOf(first), first);
    if (m[2]) add(out, m.index + m[0].lastIndexOf(m[2]), m[2]);
  }
  if (mode === 'aggressive') for (const m of matches(TITLED, text)) add(out, m.index + m[0].lastIndexOf(m[1]!), m[1]!);
  for (const m of matches(INITIALED, text)) add(out, m.index + m[0].lastIndexOf(m[1]!), m[1]!);
  for (const m of matches(SIGN_OFF, text)) add(out, m.index + m[0].lastIndexOf(m[1]!), m[1]!);
  for (const m of matches(ROLE_LINE, text)) add(out, m.index + m[0].indexOf(m[1]!), m[1]!);
  for (const m of matches(CLAUSE, text)) add(out, m.index, m[1]!);
  if (mode !== 'fast') {
    // Names without a cue (compromise's, the gazetteer's) must not look like a place or organization.
    const listed = givenNames(text);
    const uncued = [...listed, ...(options.nlp !== false ? nlpNames(text, isName, [...out, ...listed]) : [])];
    out.push(...uncued.filter((f) => !placeLike(text, f)));
    const names = new Set([...out.map((f) => text.slice(f.start, f.end)), ...(options.names ?? []).filter(isName)]);
    // A full name found once names the person by the given name alone too: `Tom Reilly` … `Tom will ask`.
    for (const n of [...names]) {
      const first = n.split(/[ \t]+/)[0]!;
      if (n.includes(' ') && isGivenName(first)) names.add(first);
    }
    for (const m of matches(EMAIL_LOCAL, text)) {
      const [first, last] = [m[1]!, m[2]!];
      const firstPart = first.length === 1 ? `${first}[\\p{L}]+` : first;
      const re = new RegExp(`(?<!\\p{L})${firstPart}[ \\t]+${last}(?!\\p{L})`, 'giu');
      for (const n of matches(re, text)) if (/^\p{Lu}/u.test(n[0])) names.add(n[0]);
    }
    // A family name found once names the family: `Ms Lindqvist`, `Annika Lindqvist`.
    const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const surname of new Set([...names].filter((n) => /[ \t]/.test(n)).map((n) => n.split(/[ \t]+/).pop()!))) {
      const re = new RegExp(`(?<!\\p{L})(?:${HONORIFIC}|${WORD})[ \\t]+${esc(surname)}(?!\\p{L})`, 'gu');
      for (const n of matches(re, text)) if (!NOT_NAME.test(n[0])) names.add(n[0]);
    }
    for (const name of names) {
      const re = new RegExp(`(?<!\\p{L})${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'gu');
      for (const n of matches(re, text)) out.push({ type: 'PERSON', start: n.index, end: n.index + n[0].length });
    }
  }
  return out;
}

/** Whether the text just before or after `[start, end)` makes it a place (`boulevard Victor Hugo`, `Grace Hopper Center`). */
function placeAround(text: string, start: number, end: number): boolean {
  return /(?<!\p{L})the[ \t]+$/iu.test(text.slice(Math.max(0, start - 5), start)) || PLACE_BEFORE.test(text.slice(Math.max(0, start - 20), start)) || PLACE_AFTER.test(text.slice(end, end + 20));
}

/** A span that names a place or an organization: `the Grace Hotel`, `Florence Nightingale Wing`, `Jefferson Davis` + ` Highway`. */
function placeLike(text: string, f: Finding): boolean {
  const words = text.slice(f.start, f.end).split(/[ \t]+/);
  const next = /^[ \t]+(\p{Lu}\p{L}*)/u.exec(text.slice(f.end, f.end + 30))?.[1];
  return words.slice(1).some((w) => NOT_SURNAME.test(w)) || (next !== undefined && NOT_SURNAME.test(next)) || /(?<!\p{L})the[ \t]+$/iu.test(text.slice(Math.max(0, f.start - 5), f.start));
}

/** Names found by the given-name gazetteer (accurate and aggressive modes); see the file header. */
function givenNames(text: string): Finding[] {
  const out: Finding[] = [];
  const re = CANDIDATE;
  for (const m of matches(re, text)) {
    const first = m[1]!;
    const rest = m[2]!.trim().split(/[ \t]+/);
    const name = m[0];
    if (!isGivenName(first) || NOT_NAME.test(first) || rest.some((w) => NOT_SURNAME.test(w) || NOT_NAME.test(w) || isPlaceWord(w.toLowerCase())) || placeAround(text, m.index, m.index + name.length)) {
      re.lastIndex = m.index + first.length; // the group may start at the next word
      continue;
    }
    out.push({ type: 'PERSON', start: m.index, end: m.index + name.length });
  }
  for (const re of [GREETED, MID_SENTENCE, SIGNED]) {
    for (const m of matches(re, text)) {
      const word = m[1]!;
      const start = m.index + m[0].lastIndexOf(word);
      if (isGivenName(word) && !NOT_NAME.test(word) && !isPlaceWord(word.toLowerCase()) && !placeAround(text, start, start + word.length)) out.push({ type: 'PERSON', start, end: start + word.length });
    }
  }
  return out;
}

export default { type: 'PERSON', detect: detectPersons } satisfies Detector;
