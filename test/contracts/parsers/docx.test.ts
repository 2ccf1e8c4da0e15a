/** Contract cases of the `docx` parser (parsers/docx.ts), on a DOCX written here. */
import { expect } from 'bun:test';
import plugin from '../../../parsers/docx.ts';
import { testParser } from '../suites/parser.ts';
import { docx, wml } from '../../parsers/zip-writer.ts';

testParser(plugin, [
  {
    name: 'headings and tables become HTML',
    bytes: () => docx(wml.p('Memo', 'Heading1') + wml.table([['a', 'b'], ['1', '2']])),
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    filename: 'memo.docx',
    expect: (doc) => {
      expect(doc.html).toContain('<h1>Memo</h1>');
      expect(doc.html).toContain('<table>');
    },
  },
]);
