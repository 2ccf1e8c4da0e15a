/** Contract cases of the `pptx` parser (parsers/pptx.ts), on a document made by pandoc (test/helpers/documents.ts). */
import { expect } from 'bun:test';
import plugin from '../../../parsers/pptx.ts';
import { testParser } from '../suites/parser.ts';
import { makeDocument, MIME } from '../../helpers/documents.ts';

testParser(plugin, [
  {
    name: 'the text of the sample document',
    bytes: () => makeDocument('pptx'),
    contentType: MIME.pptx,
    filename: 'sample.pptx',
    expect: (doc) => {
      const text = JSON.stringify(doc);
      for (const part of ['Quokka harbour', 'The quokka ferry leaves the harbour at dawn']) expect(text).toContain(part);
    },
  },
]);
