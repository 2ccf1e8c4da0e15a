/**
 * What POST /v2/parse refuses, and how (compat.md §1.4, §14): options a file cannot honour (400
 * PARSE_UNSUPPORTED_OPTIONS naming the option), options that are not JSON (400
 * BAD_REQUEST_INVALID_JSON) or not valid, bodies that are not a usable upload, files over 50 MB
 * (413 with the envelope), and bad files (encrypted, truncated, zero-page, garbage, a zip-bomb DOCX)
 * which get a clear error or a partial result, after which the server keeps serving.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { zip } from '../parsers/zip-writer.ts';
import { makePdf } from '../parsers/make-pdf.ts';
import { DEBIAN_REFERENCE, hasDebianReference } from '../parsers/helpers.ts';
import { multipart, postParse, samplePdf, upload } from './helpers.ts';

let trawl: TestTrawl;
const HTML = { filename: 'page.html', contentType: 'text/html', body: '<html><body><h1>Title</h1><p>Some words of text.</p></body></html>' };

beforeAll(async () => {
  trawl = await startTrawl();
}, 120_000);
afterAll(() => trawl?.stop(), 60_000);

async function stillServing(): Promise<void> {
  expect((await trawl.get('/health')).status).toBe(200);
  const r = await upload(trawl, HTML);
  expect(r.status).toBe(200);
  expect(r.body.data.markdown).toBe('# Title\n\nSome words of text.');
}

describe('options a file upload cannot honour', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['actions', { actions: [{ type: 'wait', milliseconds: 250 }] }, 'actions'],
    ['screenshot (string)', { formats: ['markdown', 'screenshot'] }, 'screenshot'],
    ['screenshot (object)', { formats: [{ type: 'screenshot', fullPage: true }] }, 'screenshot'],
    ['branding', { formats: ['branding'] }, 'branding'],
    ['changeTracking', { formats: ['markdown', { type: 'changeTracking' }] }, 'changeTracking'],
    ['audio', { formats: ['audio'] }, 'audio'],
    ['video', { formats: [{ type: 'video' }] }, 'video'],
    ['waitFor > 0', { waitFor: 1000 }, 'waitFor'],
    ['location', { location: { country: 'DE' } }, 'location'],
    ['mobile', { mobile: true }, 'mobile'],
    ['enhanced proxy', { proxy: 'enhanced' }, '"enhanced"'],
    ['stealth proxy', { proxy: 'stealth' }, '"stealth"'],
    ['lockdown', { lockdown: true }, 'lockdown'],
    ['profile', { profile: { name: 'p1' } }, 'profiles'],
  ];
  for (const [name, options, word] of cases) {
    test(name, async () => {
      const r = await upload(trawl, HTML, options);
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.code).toBe('PARSE_UNSUPPORTED_OPTIONS');
      expect(r.body.error).toContain(word);
    });
  }

  test('the harmless values of those options are accepted', async () => {
    const options = {
      formats: ['markdown'], waitFor: 0, mobile: false, proxy: 'basic', actions: [], headers: { 'x-a': 'b' }, timeout: 20000,
      skipTlsVerification: false, removeBase64Images: true, blockAds: true, includeTags: ['h1'], excludeTags: ['nav'], maxAge: 0, storeInCache: true,
    };
    const r = await upload(trawl, HTML, options);
    expect(r.status).toBe(200);
    expect(r.body.data.markdown).toBe('# Title');
    expect((await upload(trawl, HTML, { proxy: 'auto' })).status).toBe(200);
  });
});

describe('bad options', () => {
  test('options that are not JSON', async () => {
    const r = await upload(trawl, HTML, '{"formats": ["markdown"');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_REQUEST_INVALID_JSON');
    expect(r.body.error).toContain('"options" part is not valid JSON');
  });

  test('options that are JSON but not an object', async () => {
    const r = await upload(trawl, HTML, '["markdown"]');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_REQUEST');
    expect(r.body.error).toContain('must be a JSON object');
  });

  test('invalid values are named', async () => {
    const r = await upload(trawl, HTML, { onlyMainContent: 'yes' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_REQUEST');
    expect(r.body.error).toContain('/onlyMainContent');
    const t = await upload(trawl, HTML, { timeout: 10 });
    expect(t.status).toBe(400);
    expect(t.body.error).toContain('/timeout');
    const f = await upload(trawl, HTML, { formats: ['summery'] });
    expect(f.status).toBe(400);
    expect(f.body.error).toContain('Unknown format "summery"');
  });
});

describe('bodies that are not a usable upload', () => {
  test('JSON instead of multipart', async () => {
    const r = await postParse(trawl, JSON.stringify({ file: 'abc' }), 'application/json');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_REQUEST');
    expect(r.body.error).toContain('multipart/form-data');
  });

  test('no file part, a text field named file, an empty file', async () => {
    const none = multipart([{ name: 'options', body: '{}' }]);
    const a = await postParse(trawl, none.body, none.contentType);
    expect(a.status).toBe(400);
    expect(a.body.error).toContain('no "file" part');
    const field = multipart([{ name: 'file', body: 'just text' }]);
    const b = await postParse(trawl, field.body, field.contentType);
    expect(b.status).toBe(400);
    expect(b.body.error).toContain('must be a file');
    const empty = multipart([{ name: 'file', filename: 'a.txt', contentType: 'text/plain', body: '' }]);
    const c = await postParse(trawl, empty.body, empty.contentType);
    expect(c.status).toBe(400);
    expect(c.body.error).toContain('empty');
  });

  test('broken multipart framing', async () => {
    const r = await postParse(trawl, '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nno end', 'multipart/form-data; boundary=xyz');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_REQUEST');
    expect(r.body.error).toContain('multipart');
  });

  test('a file over 50 MB is 413 with the envelope; 50 MB less a byte is taken', async () => {
    const big = new Uint8Array(50 * 1024 * 1024 + 1).fill(0x61);
    const r = await upload(trawl, { filename: 'big.txt', contentType: 'text/plain', body: big });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(r.body.error).toContain('at most 52428800 bytes (50 MB)');
    const huge = await upload(trawl, { filename: 'huge.bin', body: new Uint8Array(60 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toContain('request body is');
    // 50 MB less a byte: an HTML page padded with a comment (small output, quick to parse).
    const html = big.subarray(0, 50 * 1024 * 1024 - 1);
    const enc = new TextEncoder();
    const end = enc.encode('--></body></html>');
    html.set(enc.encode('<html><body><h1>Padded</h1><p>Small text.</p><!--'), 0);
    html.set(end, html.length - end.length);
    const ok = await upload(trawl, { filename: 'padded.html', contentType: 'text/html', body: html });
    expect(ok.status).toBe(200);
    expect(ok.body.data.markdown).toBe('# Padded\n\nSmall text.');
    await stillServing();
  }, 60_000);
});

describe('bad files', () => {
  const PDF = 'application/pdf';

  test('password-protected PDF', async () => {
    const locked = makePdf([{ items: [{ x: 72, y: 72, size: 12, text: 'secret text' }] }], { save: 'encrypt=aes-256,user-password=hunter2' });
    const r = await upload(trawl, { filename: 'locked.pdf', contentType: PDF, body: locked });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('SCRAPE_UNSUPPORTED_FILE_ERROR');
    expect(r.body.error).toContain('password');
  });

  test('truncated PDF: what is left is read, or a clear error when too little is left', async () => {
    const full = samplePdf(3);
    const r = await upload(trawl, { filename: 'cut.pdf', contentType: PDF, body: full.slice(0, Math.floor(full.length * 0.9)) });
    expect(r.status).toBe(200);
    expect(r.body.data.markdown).toContain('Page 1 line 1:');
    const stub = await upload(trawl, { filename: 'stub.pdf', contentType: PDF, body: full.slice(0, Math.floor(full.length * 0.3)) });
    if (stub.status !== 200) {
      expect(stub.status).toBe(422);
      expect(stub.body.code).toBe('PARSE_FAILED');
      expect(stub.body.error).toContain('[pdf] the file is not a readable PDF');
    }
  });

  test('zero-page PDF', async () => {
    const r = await upload(trawl, { filename: 'empty.pdf', contentType: PDF, body: '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('PARSE_FAILED');
    expect(r.body.error).toContain('no pages');
  });

  test('garbage sent as a PDF', async () => {
    const noise = crypto.getRandomValues(new Uint8Array(20_000));
    const r = await upload(trawl, { filename: 'noise.pdf', contentType: PDF, body: noise });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('PARSE_FAILED');
    expect(r.body.error).toContain('[pdf]');
    const header = await upload(trawl, { filename: 'header.pdf', contentType: PDF, body: `%PDF-1.7\n${'x'.repeat(5000)}` });
    expect(header.status).toBe(422);
    expect(header.body.error).toContain('not a readable PDF');
  });

  test('zip-bomb DOCX is refused before it is inflated', async () => {
    const bomb = zip([{ name: 'word/document.xml', data: new Uint8Array(50 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(200_000);
    const r = await upload(trawl, { filename: 'bomb.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: bomb });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('PARSE_FAILED');
    expect(r.body.error).toContain('zip bomb');
  });

  test('the server keeps serving after the bad files', stillServing);
});

describe('time limit', () => {
  test.skipIf(!hasDebianReference)('a large PDF with a short timeout answers in time: a partial result or a clear error', async () => {
    const started = Date.now();
    const r = await upload(trawl, { filename: 'debian-reference.pdf', contentType: 'application/pdf', body: await Bun.file(DEBIAN_REFERENCE).bytes() }, { timeout: 2000 });
    const ms = Date.now() - started;
    if (r.status === 200) {
      expect(r.body.data.warning).toContain('time limit');
      expect(r.body.data.metadata.numPages).toBeLessThan(r.body.data.metadata.totalPages);
      expect(r.body.data.metadata.creditsUsed).toBe(r.body.data.metadata.numPages);
    } else if (r.status === 422) {
      // every page read before the deadline needed OCR, which the deadline stopped
      expect(r.body.code).toBe('PARSE_FAILED');
      expect(r.body.error).toContain('time limit');
    } else {
      expect([408, 500], r.text).toContain(r.status);
      expect(['SCRAPE_TIMEOUT', 'SCRAPE_PDF_INSUFFICIENT_TIME_ERROR']).toContain(r.body.code);
    }
    expect(ms).toBeLessThan(2000 + 25_000); // catches a deadline that is ignored, not speed
    await stillServing();
  }, 60_000);
});
