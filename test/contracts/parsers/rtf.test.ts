/** Contract cases of the `rtf` parser (parsers/rtf.ts), on a document made by pandoc (test/helpers/documents.ts). */
import { expect } from 'bun:test';
import plugin from '../../../parsers/rtf.ts';
import { testParser } from '../suites/parser.ts';
import { makeDocument, MIME } from '../../helpers/documents.ts';

testParser(plugin, [
  {
    name: 'the text of the sample document',
    bytes: () => makeDocument('rtf'),
    contentType: MIME.rtf,
    filename: 'sample.rtf',
    expect: (doc) => {
      const text = JSON.stringify(doc);
      for (const part of ['Quokka harbour', 'The quokka ferry leaves the harbour at dawn', 'Ferries run every hour until dusk.']) expect(text).toContain(part);
    },
  },
]);
