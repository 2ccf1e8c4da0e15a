/** Contract cases of the `text` parser (parsers/text.ts). */
import { expect } from 'bun:test';
import plugin from '../../../parsers/text.ts';
import { testParser } from '../suites/parser.ts';

testParser(plugin, [
  { name: 'plain text is kept', bytes: new TextEncoder().encode('Line one\nLine two\n'), contentType: 'text/plain', expect: (doc) => expect(doc.markdown ?? doc.html).toContain('Line two') },
]);
