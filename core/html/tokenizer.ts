/**
 * htmlparser2's Tokenizer with fast skips (tree.ts passes it to the Parser through its `Tokenizer`
 * option). The stock tokenizer runs its state machine once per character: a loop step, a `switch`
 * and a method call for every letter of every text, tag name and attribute. Most characters change
 * nothing: in text only `<` and `&` do, in a quoted attribute value only the quote and `&`, in a tag
 * or attribute name only the characters that end it. Here each of those states, on a character that
 * changes nothing, scans ahead in a tight loop to the next one that does and leaves the index just
 * before it, so the machine sees the same characters that matter in the same states and emits the
 * same events at the same indices (test/html/dom-tree.test.ts compares the trees with the stock
 * tokenizer's). `fastForwardTo` (comments, scripts and styles, closing tags) uses `indexOf`.
 *
 * It overrides htmlparser2 12's private state methods by name: a new htmlparser2 version must pass
 * that test before it is taken.
 */
import { Tokenizer } from 'htmlparser2';

const LT = 60;
const AMP = 38;
const GT = 62;
const SLASH = 47;
const EQ = 61;
const DQ = 34;
const SQ = 39;

/** The Tokenizer's fields and state methods used here (private in its type declarations). */
interface Internals {
  buffer: string;
  index: number;
  offset: number;
  decodeEntities: boolean;
  stateText(c: number): void;
  stateInTagName(c: number): void;
  stateInClosingTagName(c: number): void;
  stateInAttributeName(c: number): void;
  stateInAttributeValueDoubleQuotes(c: number): void;
  stateInAttributeValueSingleQuotes(c: number): void;
}

/** htmlparser2's white space and `/`, `>`: what ends a tag name (Tokenizer.js `isEndOfTagSection`). */
function endsTagSection(c: number): boolean {
  return c === SLASH || c === GT || c === 32 || c === 10 || c === 9 || c === 12 || c === 13;
}

const Base = Tokenizer as unknown as new (options: object, cbs: object) => Internals;

class FastTokenizer extends Base {
  /** Moves the index to just before buffer position `i` (the parse loop then steps onto it). */
  private skipTo(i: number): void {
    this.index = i - 1 + this.offset;
  }

  override stateText(c: number): void {
    if (c === LT || c === AMP || !this.decodeEntities) return super.stateText(c);
    this.skipUntil(LT, AMP);
  }

  override stateInTagName(c: number): void {
    if (endsTagSection(c)) return super.stateInTagName(c);
    this.skipName();
  }

  override stateInClosingTagName(c: number): void {
    if (endsTagSection(c)) return super.stateInClosingTagName(c);
    this.skipName();
  }

  override stateInAttributeName(c: number): void {
    if (c === EQ || endsTagSection(c)) return super.stateInAttributeName(c);
    const buf = this.buffer;
    let i = this.index - this.offset + 1;
    for (; i < buf.length; i++) {
      const d = buf.charCodeAt(i);
      if (d === EQ || endsTagSection(d)) break;
    }
    this.skipTo(i);
  }

  override stateInAttributeValueDoubleQuotes(c: number): void {
    if (c === DQ || c === AMP || !this.decodeEntities) return super.stateInAttributeValueDoubleQuotes(c);
    this.skipUntil(DQ, AMP);
  }

  override stateInAttributeValueSingleQuotes(c: number): void {
    if (c === SQ || c === AMP || !this.decodeEntities) return super.stateInAttributeValueSingleQuotes(c);
    this.skipUntil(SQ, AMP);
  }

  /** Scans a tag name (opening or closing) to the character that ends it. */
  private skipName(): void {
    const buf = this.buffer;
    let i = this.index - this.offset + 1;
    while (i < buf.length && !endsTagSection(buf.charCodeAt(i))) i++;
    this.skipTo(i);
  }

  /** Scans to the next `a` or `b` (text: `<` or `&`; a quoted attribute value: its quote or `&`). */
  private skipUntil(a: number, b: number): void {
    const buf = this.buffer;
    let i = this.index - this.offset + 1;
    for (; i < buf.length; i++) {
      const d = buf.charCodeAt(i);
      if (d === a || d === b) break;
    }
    this.skipTo(i);
  }

  /** The stock `fastForwardTo` (same result), with `indexOf` instead of a loop of `charCodeAt`. */
  fastForwardTo(c: number): boolean {
    const at = this.buffer.indexOf(String.fromCharCode(c), this.index - this.offset + 1);
    if (at >= 0) {
      this.index = at + this.offset;
      return true;
    }
    this.index = this.buffer.length + this.offset - 1;
    return false;
  }
}

/** The tokenizer class to pass as htmlparser2's `Tokenizer` parser option. */
export const fastTokenizer = FastTokenizer as unknown as typeof Tokenizer;
