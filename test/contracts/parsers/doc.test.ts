/** Contract cases of the `doc` parser (parsers/doc.ts), on a document made by LibreOffice Writer from the odt (test/helpers/documents.ts). */
import { expect } from 'bun:test';
import plugin from '../../../parsers/doc.ts';
import { testParser } from '../suites/parser.ts';
import { makeDocument, MIME } from '../../helpers/documents.ts';

testParser(plugin, [
  {
    name: 'the text of the sample document',
    bytes: () => makeDocument('doc'),
    contentType: MIME.doc,
    filename: 'sample.doc',
    expect: (doc) => {
      const text = JSON.stringify(doc);
      for (const part of ['Quokka harbour', 'The quokka ferry leaves the harbour at dawn', 'Ferries run every hour until dusk.']) expect(text).toContain(part);
    },
  },
]);
