/**
 * Builds the DOM from htmlparser2's parser callbacks: the trees domhandler's DomHandler builds (same
 * node types, fields, merging of adjacent texts and prototypes, so domhandler's getters, `cloneNode`,
 * `instanceof`, css-select and dom-serializer keep working), but cheaper: a node holds only what Trawl
 * reads (`type`, `name`, `attribs`, `children`, `data`, `parent`, `prev`, `next`; no source indices
 * nor namespace slots), and the open elements are a plain stack. Parsing a page this way spends
 * about a third less time outside the tokenizer (bench/markdown/step-stages.ts, parse stage). The
 * parser runs with the fast skips of tokenizer.ts and the shared names of parser.ts (same events).
 */
import type { Handler, ParserOptions } from 'htmlparser2';
import { FastHtmlParser } from './parser.ts';
import { fastTokenizer } from './tokenizer.ts';
import { CDATA, Comment, Document, Element, ProcessingInstruction, Text, type AnyNode, type ParentNode } from 'domhandler';

type Fields = Record<string, unknown>;

/** An element with domhandler's prototype and only the fields read. */
const LightElement = function (this: Fields, name: string, attribs: Record<string, string>, parent: ParentNode, prev: AnyNode | null) {
  this.type = name === 'script' ? 'script' : name === 'style' ? 'style' : 'tag';
  this.name = name;
  this.attribs = attribs;
  this.children = [];
  this.parent = parent;
  this.prev = prev;
  this.next = null;
} as unknown as new (name: string, attribs: Record<string, string>, parent: ParentNode, prev: AnyNode | null) => Element;
LightElement.prototype = Element.prototype;

/** A text node (and below, a comment) with domhandler's prototype and only the fields read. */
const LightData = function (this: Fields, type: string, data: string, parent: ParentNode, prev: AnyNode | null) {
  this.type = type;
  this.data = data;
  this.parent = parent;
  this.prev = prev;
  this.next = null;
} as unknown as new (type: string, data: string, parent: ParentNode, prev: AnyNode | null) => Text;
const LightComment = function (this: Fields, data: string, parent: ParentNode, prev: AnyNode | null) {
  this.type = 'comment';
  this.data = data;
  this.parent = parent;
  this.prev = prev;
  this.next = null;
} as unknown as new (data: string, parent: ParentNode, prev: AnyNode | null) => Comment;
LightData.prototype = Text.prototype;
LightComment.prototype = Comment.prototype;

/** The parser callbacks that build the tree (see file header). */
class TreeBuilder implements Partial<Handler> {
  readonly root = new Document([]);
  /** The innermost open element (or the root). */
  private top: ParentNode = this.root;
  /** The open elements' parents, innermost last. */
  private readonly open: ParentNode[] = [];
  /** The text the next text event extends (htmlparser2 splits a text at each entity). */
  private text: Text | null = null;

  private last(): AnyNode | null {
    const kids = this.top.children;
    return kids.length ? kids[kids.length - 1] : null;
  }

  private add(node: AnyNode, prev: AnyNode | null): void {
    if (prev) prev.next = node;
    this.top.children.push(node);
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    const prev = this.last();
    const el = new LightElement(name, attribs, this.top, prev);
    this.add(el, prev);
    this.open.push(this.top);
    this.top = el;
    this.text = null;
  }

  onclosetag(): void {
    this.text = null;
    const up = this.open.pop();
    if (up) this.top = up;
  }

  ontext(data: string): void {
    if (this.text) {
      this.text.data += data;
      return;
    }
    const prev = this.last();
    const node = new LightData('text', data, this.top, prev);
    this.add(node, prev);
    this.text = node;
  }

  oncomment(data: string): void {
    const prev = this.last();
    this.add(new LightComment(data, this.top, prev), prev);
    this.text = null;
  }

  oncommentend(): void {
    this.text = null;
  }

  oncdatastart(): void {
    const node = new CDATA([]);
    this.adopt(node);
    const text = new Text('');
    text.parent = node;
    node.children.push(text);
    this.text = text;
  }

  oncdataend(): void {
    this.text = null;
  }

  onprocessinginstruction(name: string, data: string): void {
    this.adopt(new ProcessingInstruction(name, data));
    this.text = null;
  }

  /** Appends a node made by a domhandler constructor (rare kinds). */
  private adopt(node: AnyNode): void {
    const prev = this.last();
    node.parent = this.top;
    node.prev = prev;
    this.add(node, prev);
  }
}

/**
 * Parses `html` with htmlparser2 into a domhandler-compatible Document (see file header).
 * @param options htmlparser2's parser options (tag case, entities, self-closing tags ...)
 */
export function buildTree(html: string, options: ParserOptions): Document {
  const builder = new TreeBuilder();
  new FastHtmlParser(builder, { ...options, Tokenizer: fastTokenizer }).end(html);
  return builder.root;
}
