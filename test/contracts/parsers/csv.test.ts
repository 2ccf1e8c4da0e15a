/** Contract cases of the `csv` parser (parsers/csv.ts). */
import { expect } from 'bun:test';
import plugin from '../../../parsers/csv.ts';
import { testParser } from '../suites/parser.ts';

testParser(plugin, [
  { name: 'a markdown table', bytes: new TextEncoder().encode('port,high\nKiel,12:04\n'), contentType: 'text/csv', expect: (doc) => expect(doc.markdown).toContain('| Kiel | 12:04 |') },
  { name: 'quoted cells with commas', bytes: new TextEncoder().encode('a,b\n"x, y",2\n'), contentType: 'text/csv', expect: (doc) => expect(doc.markdown).toContain('x, y') },
]);
