/** Contract cases of the `odp` parser (parsers/odp.ts), on a document made by a ZIP written here (test/helpers/documents.ts). */
import { expect } from 'bun:test';
import plugin from '../../../parsers/odp.ts';
import { testParser } from '../suites/parser.ts';
import { makeDocument, MIME } from '../../helpers/documents.ts';

testParser(plugin, [
  {
    name: 'the text of the sample document',
    bytes: () => makeDocument('odp'),
    contentType: MIME.odp,
    filename: 'sample.odp',
    expect: (doc) => {
      const text = JSON.stringify(doc);
      for (const part of ['Slide 1: quokka ferries cross the bay at dawn.', 'Slide 2: quokka ferries']) expect(text).toContain(part);
    },
  },
]);
