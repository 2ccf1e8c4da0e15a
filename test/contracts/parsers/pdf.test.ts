/** Contract cases of the `pdf` parser (parsers/pdf.ts), on PDFs made with mupdf. */
import { expect } from 'bun:test';
import plugin from '../../../parsers/pdf.ts';
import { testParser } from '../suites/parser.ts';
import { makePdf } from '../../parsers/make-pdf.ts';

const pdf = () => makePdf([{ items: [{ x: 72, y: 100, size: 20, text: 'Harbour report' }, { x: 72, y: 140, size: 11, text: 'The tide came in at noon.' }] }, { items: [{ x: 72, y: 100, size: 11, text: 'Second page text.' }] }], { title: 'Harbour' });

testParser(plugin, [
  {
    name: 'markdown, numPages and one billable unit per page',
    bytes: pdf,
    contentType: 'application/pdf',
    magic: true,
    expect: (doc) => {
      expect(doc.markdown).toContain('The tide came in at noon.');
      expect(doc.metadata.numPages).toBe(2);
      expect(doc.billablePages).toBe(2);
    },
  },
  { name: 'maxPages limits the pages read', bytes: pdf, contentType: 'application/pdf', options: { maxPages: 1 }, expect: (doc) => expect(doc.markdown).not.toContain('Second page') },
  { name: 'pages: per-page markdown', bytes: pdf, contentType: 'application/pdf', options: { pages: true }, expect: (doc) => expect(doc.pages?.map((p) => p.pageNumber)).toEqual([1, 2]) },
]);
