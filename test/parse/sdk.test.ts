/**
 * The official SDK (`firecrawl@4.42.0`) unchanged against Trawl (issue 5 "Done when"): `parse()` of
 * a PDF, an HTML string and a DOCX buffer, its errors (an image without the image parser, an
 * unsupported option the SDK does not catch itself), and `scrape()` of a PDF URL, parsed and with
 * `parsers: []`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Firecrawl from 'firecrawl';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { docx, wml } from '../parsers/zip-writer.ts';
import { makePdf, renderPng } from '../parsers/make-pdf.ts';
import { samplePdf } from './helpers.ts';

let trawl: TestTrawl;
let site: FixtureSite;
let client: Firecrawl;
const pdf = samplePdf(3, 'Quarterly figures');

beforeAll(async () => {
  site = serveFixtures({ '/q3.pdf': { body: pdf, headers: { 'content-type': 'application/pdf' } } });
  trawl = await startTrawl();
  client = new Firecrawl({ apiKey: trawl.adminKey!, apiUrl: trawl.base });
}, 120_000);
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
}, 60_000);

/** The SdkError a call rejects with. */
async function sdkError(p: Promise<unknown>): Promise<{ status: number; code?: string; message: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { status?: number; code?: string; message: string };
    return { status: err.status ?? 0, code: err.code, message: err.message };
  }
  throw new Error('expected the SDK call to fail');
}

describe('parse()', () => {
  test('a PDF buffer with parser options', async () => {
    const doc = await client.parse(
      { data: Buffer.from(pdf), filename: 'q3.pdf', contentType: 'application/pdf' },
      { formats: ['markdown'], parsers: [{ type: 'pdf', mode: 'fast', pages: true }] },
    );
    expect(doc.markdown!.startsWith('# Chapter 1\n\n')).toBe(true);
    expect(doc.metadata).toMatchObject({ title: 'Quarterly figures', numPages: 3, creditsUsed: 3, sourceURL: 'file://upload/q3.pdf' });
    expect(doc.pages!.map((p) => p.pageNumber)).toEqual([1, 2, 3]);
  });

  test('an HTML string', async () => {
    const doc = await client.parse(
      { data: '<html><head><title>Memo</title></head><body><h1>Memo</h1><p>Meeting moved to Friday at noon.</p></body></html>', filename: 'memo.html', contentType: 'text/html' },
      { formats: ['markdown', 'html'], onlyMainContent: true },
    );
    expect(doc.markdown).toBe('# Memo\n\nMeeting moved to Friday at noon.');
    expect(doc.html).toContain('<h1>Memo</h1>');
    expect(doc.metadata).toMatchObject({ title: 'Memo', creditsUsed: 1 });
  });

  test('a DOCX Uint8Array without options', async () => {
    const file = docx(wml.p('Minutes', 'Heading1') + wml.p('All present.'), 'Minutes');
    const doc = await client.parse({ data: file, filename: 'minutes.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
    expect(doc.markdown).toBe('# Minutes\n\nAll present.');
  });

  test('an image without the image parser is refused; with it, OCR-ed', async () => {
    const png = renderPng(makePdf([{ items: [{ x: 40, y: 70, size: 30, font: 'Helvetica-Bold', text: 'Storm warning' }], width: 360, height: 120 }]), 0, 200);
    const e = await sdkError(client.parse({ data: png, filename: 'sign.png', contentType: 'image/png' }, { formats: ['markdown'] }));
    expect(e.status).toBe(400);
    expect(e.code).toBe('UNSUPPORTED_FILE_TYPE');
    const doc = await client.parse({ data: png, filename: 'sign.png', contentType: 'image/png' }, { parsers: ['image'] } as never);
    expect(doc.markdown).toContain('Storm warning');
  }, 60_000);

  test('an option the SDK lets through but a file cannot honour', async () => {
    const e = await sdkError(client.parse({ data: '<p>x</p>', filename: 'x.html', contentType: 'text/html' }, { profile: { name: 'p' } } as never));
    expect(e.status).toBe(400);
    expect(e.code).toBe('PARSE_UNSUPPORTED_OPTIONS');
    expect(e.message).toContain('profiles');
  });
});

describe('scrape() of a PDF URL', () => {
  test('parsed to markdown, 1 credit per page', async () => {
    const doc = await client.scrape(site.url('/q3.pdf'), { formats: ['markdown'], maxAge: 0 });
    expect(doc.markdown).toContain('Page 3 line 12:');
    expect(doc.metadata).toMatchObject({ title: 'Quarterly figures', numPages: 3, creditsUsed: 3, contentType: 'application/pdf' });
  });

  test('parsers: [] gives the file base64-encoded', async () => {
    const doc = await client.scrape(site.url('/q3.pdf'), { formats: ['markdown'], parsers: [], maxAge: 0 });
    expect(Buffer.from(doc.markdown!, 'base64').equals(Buffer.from(pdf))).toBe(true);
    expect(doc.metadata!.creditsUsed).toBe(1);
  });
});
