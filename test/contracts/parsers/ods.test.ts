/** Contract cases of the `ods` parser (parsers/ods.ts), on a document made by a ZIP written here (test/helpers/documents.ts). */
import { expect } from 'bun:test';
import plugin from '../../../parsers/ods.ts';
import { testParser } from '../suites/parser.ts';
import { makeDocument, MIME } from '../../helpers/documents.ts';

testParser(plugin, [
  {
    name: 'the text of the sample document',
    bytes: () => makeDocument('ods'),
    contentType: MIME.ods,
    filename: 'sample.ods',
    expect: (doc) => {
      const text = JSON.stringify(doc);
      for (const part of ['Harbour', 'High water', 'Quokkaport', '06:42']) expect(text).toContain(part);
    },
  },
]);
