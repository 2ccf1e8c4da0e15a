/** Types of the parts of word-extractor (no declarations of its own) that parsers/doc.ts uses. */
declare module 'word-extractor' {
  interface WordDocument {
    /** The body text, paragraphs separated by newlines. */
    getBody(options?: { filterUnicode?: boolean }): string;
  }
  export default class WordExtractor {
    extract(source: string | Buffer): Promise<WordDocument>;
  }
}

declare module 'word-extractor/lib/word-ole-extractor.js' {
  export default class WordOleExtractor {
    extractWordDocument(document: unknown, buffer: Buffer): Promise<unknown>;
  }
}
