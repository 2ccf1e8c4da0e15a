/**
 * htmlparser2's Parser with cheaper names (tree.ts builds the DOM through it). The stock parser cuts
 * every tag and attribute name out of the page and lower-cases it: a new string per name, hashed again
 * by every Set and Map look-up and property write that uses it downstream. Here a name made of ASCII
 * characters is looked up by its lower-cased characters in a table of the names seen before and the
 * same string is returned each time (`slice().toLowerCase()` of the same characters, so the values do
 * not change); other names take the stock path. Text and attribute values are cut from the one
 * buffer directly (buildTree hands the page over in one piece).
 *
 * Like tokenizer.ts it overrides htmlparser2 12's private methods by name; test/html/dom-tree.test.ts
 * compares the trees with domhandler's on the stock parser.
 */
import { Parser } from 'htmlparser2';

/** The Parser's fields and methods used here (private in its type declarations). */
interface Internals {
  buffers: string[];
  bufferOffset: number;
  foreignContext: number[];
  lowerCaseTagNames: boolean;
  lowerCaseAttributeNames: boolean;
  htmlMode: boolean;
  startIndex: number;
  attribname: string;
  getSlice(start: number, end: number): string;
  readTagName(start: number, end: number): string;
  onattribname(start: number, end: number): void;
}

/** Lower-cased names by a hash of their characters (shared by all parses; cleared when it grows). */
const names = new Map<number, string>();
const MAX_NAMES = 4096;

/**
 * `buf.slice(start, end).toLowerCase()`, the same string for the same ASCII name (see file header).
 */
function lowerName(buf: string, start: number, end: number): string {
  let h = end - start;
  for (let i = start; i < end; i++) {
    let c = buf.charCodeAt(i);
    if (c > 127) return buf.slice(start, end).toLowerCase();
    if (c >= 65 && c <= 90) c += 32;
    h = (Math.imul(h, 31) + c) | 0;
  }
  const known = names.get(h);
  if (known !== undefined && known.length === end - start) {
    let same = true;
    for (let i = 0; i < known.length && same; i++) {
      let c = buf.charCodeAt(start + i);
      if (c >= 65 && c <= 90) c += 32;
      same = c === known.charCodeAt(i);
    }
    if (same) return known;
  }
  const name = buf.slice(start, end).toLowerCase();
  if (names.size >= MAX_NAMES) names.clear();
  names.set(h, name);
  return name;
}

const Base = Parser as unknown as new (cbs: object, options: object) => Internals;

class FastParser extends Base {
  /** The page, when it was written in one piece (always, from buildTree). */
  private one(): string | undefined {
    return this.buffers.length === 1 && this.bufferOffset === 0 ? this.buffers[0] : undefined;
  }

  override getSlice(start: number, end: number): string {
    const buf = this.one();
    return buf === undefined ? super.getSlice(start, end) : buf.slice(start, end);
  }

  override readTagName(start: number, end: number): string {
    // Outside svg and math (one context entry), the stock method lower-cases the name and maps
    // `image` to `img`; inside, it adjusts svg names too: that path stays the stock one.
    const buf = this.one();
    if (buf === undefined || !this.lowerCaseTagNames || !this.htmlMode || this.foreignContext.length !== 1 || this.foreignContext[0] !== 0) return super.readTagName(start, end);
    const name = lowerName(buf, start, end);
    return name === 'image' ? 'img' : name;
  }

  override onattribname(start: number, end: number): void {
    const buf = this.one();
    if (buf === undefined || !this.lowerCaseAttributeNames) return super.onattribname(start, end);
    this.startIndex = start;
    this.attribname = lowerName(buf, start, end);
  }
}

/** htmlparser2's Parser with the cheaper names described in the file header (same constructor). */
export const FastHtmlParser = FastParser as unknown as typeof Parser;
