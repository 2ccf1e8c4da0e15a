/** Contract cases of the `epub` parser (parsers/epub.ts), on a document made by pandoc (test/helpers/documents.ts). */
import { expect } from 'bun:test';
import plugin from '../../../parsers/epub.ts';
import { testParser } from '../suites/parser.ts';
import { makeDocument, MIME } from '../../helpers/documents.ts';

testParser(plugin, [
  {
    name: 'the text of the sample document',
    bytes: () => makeDocument('epub'),
    contentType: MIME.epub,
    filename: 'sample.epub',
    expect: (doc) => {
      const text = JSON.stringify(doc);
      for (const part of ['Quokka harbour', 'The quokka ferry leaves the harbour at dawn', 'Ferries run every hour until dusk.']) expect(text).toContain(part);
    },
  },
]);
