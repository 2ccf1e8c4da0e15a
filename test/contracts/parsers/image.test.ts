/**
 * Contract cases of the `image` parser (parsers/image.ts, OCR with tesseract.js): a PNG with printed
 * words, rendered from a PDF made with mupdf.
 */
import { expect } from 'bun:test';
import plugin from '../../../parsers/image.ts';
import { testParser } from '../suites/parser.ts';
import { makePdf, renderPng } from '../../parsers/make-pdf.ts';

const png = () => renderPng(makePdf([{ items: [{ x: 40, y: 80, size: 28, text: 'HARBOUR TIDES' }], width: 400, height: 140 }]), 0, 150);

testParser(plugin, [
  { name: 'OCR reads printed words', bytes: png, contentType: 'image/png', magic: true, expect: (doc) => expect(String(doc.markdown)).toContain('HARBOUR') },
]);
