/** Contract cases of the `rawBase64` format (formats/raw-base64.ts). */
import { expect } from 'bun:test';
import plugin from '../../../formats/raw-base64.ts';
import { testFormat } from '../suites/format.ts';

const page = '<html><body><p>é bytes</p></body></html>';
const pdf = new TextEncoder().encode('%PDF-1.4\n%%EOF');

testFormat(plugin, [
  { name: 'a page: its bytes base64-encoded', page, expect: (doc) => expect(Buffer.from(doc.rawBase64 as string, 'base64').toString('utf8')).toBe(page) },
  { name: 'any content type (CSV)', bytes: new TextEncoder().encode('a,b\n'), contentType: 'text/csv', expect: (doc) => expect(doc.rawBase64).toBe(Buffer.from('a,b\n').toString('base64')) },
  { name: 'content no parser reads (audio) is fine', bytes: new Uint8Array([82, 73, 70, 70, 0, 1, 2]), contentType: 'audio/wav', expect: (doc) => expect(doc.rawBase64).toBe('UklGRgABAg==') },
  { name: 'with another format it is a 400 naming both', page, with: ['markdown'], invalid: /rawBase64.*only format.*markdown/ },
  { name: 'a PDF: the file bytes, not parsed nor billed per page', bytes: pdf, contentType: 'application/pdf', expect: (doc) => {
    expect(doc.rawBase64).toBe(Buffer.from(pdf).toString('base64'));
    expect(doc.metadata.creditsUsed).toBe(1);
    expect(doc.metadata.numPages).toBeUndefined();
  } },
  { name: 'a page keeps its metadata', page: '<html><head><title>Kept</title></head></html>', expect: (doc) => expect(doc.metadata.title).toBe('Kept') },
]);
