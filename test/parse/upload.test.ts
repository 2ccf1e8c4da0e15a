/**
 * POST /v2/parse end to end (compat.md §14) through the real HTTP app, queue, worker and embedded
 * database, with keys on (keyless calls allowed, the admin key for credit checks): raw multipart
 * bodies in both part orders, HTML/DOCX/CSV/text/PDF uploads, the PDF parser options, `parsers: []`
 * (base64 at 1 credit), images with and without the image parser, the stored document, credits
 * charged, and the upload blob deleted once parsed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { runAdmin } from '../../core/admin/cli.ts';
import { Registry } from '../../core/registry.ts';
import { docx, wml } from '../parsers/zip-writer.ts';
import { makePdf, renderPng } from '../parsers/make-pdf.ts';
import { checkBlocks } from '../parsers/helpers.ts';
import { multipart, postParse, samplePdf, upload } from './helpers.ts';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour notes</title>
<meta name="description" content="Notes on the harbour."></head><body>
<nav><a href="/a">Home</a> <a href="/b">About</a></nav>
<main><h1>Harbour notes</h1><p>The harbour opens at six and closes at ten. Boats must register at the office before they moor.</p>
<ul><li>Fuel: east pier</li><li>Water: every berth</li></ul></main>
<footer>Copyright 2026 Harbour Office</footer></body></html>`;

let trawl: TestTrawl;
const auth = () => ({ authorization: `Bearer ${trawl.adminKey}` });

beforeAll(async () => {
  trawl = await startTrawl();
}, 120_000);
afterAll(() => trawl?.stop(), 60_000);

async function balance(): Promise<number> {
  const r = await trawl.get('/v2/team/credit-usage', auth());
  expect(r.status).toBe(200);
  return r.body.data.remainingCredits;
}

describe('multipart framing', () => {
  test('options before or after the file give the same document', async () => {
    const options = { formats: ['markdown', 'html'], onlyMainContent: true, origin: 'js-sdk@4.42.0', integration: 'test' };
    const file = { filename: 'harbour.html', contentType: 'text/html', body: PAGE };
    const first = await upload(trawl, file, options);
    const last = await upload(trawl, file, options, { optionsLast: true });
    for (const r of [first, last]) {
      expect(r.status).toBe(200);
      expect(r.body.success).toBe(true);
      const doc = r.body.data;
      expect(doc.markdown).toBe('# Harbour notes\n\nThe harbour opens at six and closes at ten. Boats must register at the office before they moor.\n\n- Fuel: east pier\n- Water: every berth');
      expect(doc.html).toContain('<h1>Harbour notes</h1>');
      expect(doc.html).not.toContain('Copyright');
      expect(doc.metadata).toMatchObject({ title: 'Harbour notes', description: 'Notes on the harbour.', language: 'en', sourceURL: 'file://upload/harbour.html', url: 'file://upload/harbour.html', statusCode: 200, creditsUsed: 1 });
    }
    expect(first.body.data.metadata.scrapeId).not.toBe(last.body.data.metadata.scrapeId);
  });

  test('options change the output: onlyMainContent false keeps the page furniture', async () => {
    const r = await upload(trawl, { filename: 'harbour.html', contentType: 'text/html', body: PAGE }, { onlyMainContent: false }, { optionsLast: true });
    expect(r.status).toBe(200);
    expect(r.body.data.markdown).toContain('Copyright 2026 Harbour Office');
    expect(Object.keys(r.body.data)).toEqual(['markdown', 'metadata']);
  });

  test('without an options part the defaults apply (markdown only)', async () => {
    const { body, contentType } = multipart([{ name: 'file', filename: 'notes.txt', contentType: 'text/plain', body: 'Line one.\nLine two.' }]);
    const r = await postParse(trawl, body, contentType);
    expect(r.status).toBe(200);
    expect(r.body.data.markdown).toBe('Line one.\nLine two.');
    expect(r.body.data.metadata.creditsUsed).toBe(1);
  });

  test('the stored document reads back byte for byte', async () => {
    const r = await upload(trawl, { filename: 'harbour.html', contentType: 'text/html', body: PAGE }, { formats: ['markdown'] });
    const again = await trawl.get(`/v2/scrape/${r.body.data.metadata.scrapeId}`);
    expect(again.status).toBe(200);
    expect(again.text).toBe(r.text);
  });

  test('a file name with spaces and directories', async () => {
    const r = await upload(trawl, { filename: 'C:\\Users\\me\\My Notes.md', body: '# Title\n\nBody text.' });
    expect(r.status).toBe(200);
    expect(r.body.data.markdown).toBe('# Title\n\nBody text.');
    expect(r.body.data.metadata.sourceURL).toBe('file://upload/My%20Notes.md');
  });
});

describe('file types', () => {
  test('DOCX', async () => {
    const file = docx(wml.p('Shipping schedule', 'Heading1') + wml.p('Ferries leave every hour.') + wml.table([['Port', 'Time'], ['Hull', '09:00']]), 'Schedule');
    const r = await upload(trawl, { filename: 'schedule.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: file }, {});
    expect(r.status).toBe(200);
    expect(r.body.data.markdown).toContain('# Shipping schedule');
    expect(r.body.data.markdown).toContain('Ferries leave every hour.');
    expect(r.body.data.markdown).toContain('| Port | Time |');
    expect(r.body.data.metadata.title).toBe('Schedule');
  });

  test('CSV sent as application/octet-stream is found by its extension', async () => {
    const r = await upload(trawl, { filename: 'ports.csv', contentType: 'application/octet-stream', body: 'port,berths\nHull,12\nLeith,8\n' });
    expect(r.status).toBe(200);
    expect(r.body.data.markdown).toBe('| port | berths |\n| --- | --- |\n| Hull | 12 |\n| Leith | 8 |');
  });

  test('HTML in windows-1252 declared by its meta tag', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('<html><head><meta charset="windows-1252"><title>Caf'), 0xe9, ...new TextEncoder().encode('</title></head><body><p>Cr'), 0xe8, ...new TextEncoder().encode('me br'), 0xfb, ...new TextEncoder().encode('l'), 0xe9, ...new TextEncoder().encode('e</p></body></html>')]);
    const r = await upload(trawl, { filename: 'cafe.html', contentType: 'text/html', body: bytes });
    expect(r.status).toBe(200);
    expect(r.body.data.metadata.title).toBe('Café');
    expect(r.body.data.markdown).toBe('Crème brûlée');
  });

  test('PDF: pages, page markers, blocks, numPages, and 1 credit per page charged', async () => {
    const before = await balance();
    const r = await upload(
      trawl,
      { filename: 'report.pdf', contentType: 'application/pdf', body: samplePdf(3, 'Harbour report') },
      { parsers: [{ type: 'pdf', mode: 'fast', pages: true, pageMarkers: true, blocks: true }] },
      { headers: auth() },
    );
    expect(r.status).toBe(200);
    const doc = r.body.data;
    expect(doc.metadata).toMatchObject({ title: 'Harbour report', numPages: 3, creditsUsed: 3, contentType: 'application/pdf' });
    expect(doc.markdown.startsWith('# Chapter 1\n\n')).toBe(true);
    expect(doc.markdown).toContain('\n\n---\n\n<!-- Page 2 -->\n\n# Chapter 2');
    expect(doc.markdown).toContain('<!-- Page 3 -->');
    expect(doc.pages.map((p: { pageNumber: number }) => p.pageNumber)).toEqual([1, 2, 3]);
    expect(doc.pages[1].markdown).toContain('Page 2 line 12:');
    expect(checkBlocks(doc.blocks, doc.markdown)).toEqual([]);
    expect(await balance()).toBe(before - 3);
  });

  test('PDF: maxPages limits pages and credits', async () => {
    const r = await upload(trawl, { filename: 'report.pdf', contentType: 'application/pdf', body: samplePdf(4) }, { parsers: [{ type: 'pdf', maxPages: 2 }] });
    expect(r.status).toBe(200);
    expect(r.body.data.metadata).toMatchObject({ numPages: 2, totalPages: 4, creditsUsed: 2 });
    expect(r.body.data.markdown).toContain('Page 2 line 1:');
    expect(r.body.data.markdown).not.toContain('Page 3 line 1:');
  });

  test('PDF with parsers: [] comes back base64-encoded at 1 credit', async () => {
    const pdf = samplePdf(5);
    const before = await balance();
    const r = await upload(trawl, { filename: 'report.pdf', contentType: 'application/pdf', body: pdf }, { formats: ['markdown', 'html'], parsers: [] }, { headers: auth() });
    expect(r.status).toBe(200);
    const doc = r.body.data;
    expect(Buffer.from(doc.markdown, 'base64').equals(Buffer.from(pdf))).toBe(true);
    expect(doc.html).toBe(doc.markdown);
    expect(doc.metadata.creditsUsed).toBe(1);
    expect(doc.metadata.numPages).toBeUndefined();
    expect(await balance()).toBe(before - 1);
  });

  test('a PDF named .bin without a content type is found by its magic bytes', async () => {
    const r = await upload(trawl, { filename: 'download.bin', body: samplePdf(1) });
    expect(r.status).toBe(200);
    expect(r.body.data.metadata.numPages).toBe(1);
    expect(r.body.data.markdown).toContain('Page 1 line 1:');
  });

  test('an image is UNSUPPORTED_FILE_TYPE without the image parser and OCR-ed with it', async () => {
    const text = makePdf([{ items: [{ x: 40, y: 60, size: 28, font: 'Helvetica-Bold', text: 'Lighthouse keepers' }, { x: 40, y: 110, size: 18, font: 'Helvetica', text: 'The lamp burns from dusk to dawn.' }], width: 420, height: 160 }]);
    const png = renderPng(text, 0, 200);
    const refused = await upload(trawl, { filename: 'scan.png', contentType: 'image/png', body: png }, { formats: ['markdown'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, code: 'UNSUPPORTED_FILE_TYPE' });
    expect(refused.body.error).toContain('"parsers": ["image"]');
    const ocr = await upload(trawl, { filename: 'scan.png', contentType: 'image/png', body: png }, { parsers: ['image'] });
    expect(ocr.status).toBe(200);
    expect(ocr.body.data.markdown).toContain('Lighthouse keepers');
    expect(ocr.body.data.markdown).toContain('The lamp burns from dusk to dawn.');
    expect(ocr.body.data.metadata.creditsUsed).toBe(1);
  }, 60_000);

  test('a file no parser reads is UNSUPPORTED_FILE_TYPE naming what is supported', async () => {
    const r = await upload(trawl, { filename: 'archive.7z', contentType: 'application/x-7z-compressed', body: new Uint8Array([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4, 1, 2, 3]) });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(r.body.error).toContain('"archive.7z"');
    expect(r.body.error).toContain('.pdf');
    expect(r.body.error).toContain('.docx');
  });
});

describe('keys and retention', () => {
  test('keyless works; a wrong key is 401', async () => {
    const file = { filename: 'a.txt', contentType: 'text/plain', body: 'hello' };
    expect((await upload(trawl, file)).status).toBe(200);
    const bad = await upload(trawl, file, {}, { headers: { authorization: 'Bearer fc-not-a-key' } });
    expect(bad.status).toBe(401);
  });

  test('zero data retention needs the team setting', async () => {
    const r = await upload(trawl, { filename: 'a.txt', contentType: 'text/plain', body: 'hello' }, { zeroDataRetention: true });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('zero data retention');
  });
});

describe('key restrictions and zero data retention (keys made with the admin commands)', () => {
  async function admin(...argv: string[]): Promise<string> {
    let out = '';
    let err = '';
    const code = await runAdmin(argv, trawl.running.services.db, {
      out: (t) => (out += t), err: (t) => (err += t), knownFormats: new Registry().names('format'), defaults: { credits: 1000, concurrency: 10 },
    });
    expect(code, err).toBe(0);
    return out;
  }
  async function key(zdr: boolean, ...restrictions: string[]): Promise<Record<string, string>> {
    const team = (await admin('teams', 'create', `parse-${crypto.randomUUID().slice(0, 8)}`, '--credits', '100', '--zdr', zdr ? 'on' : 'off')).split(/\s+/)[0]!;
    const out = await admin('keys', 'create', '--team', team, ...restrictions);
    return { authorization: `Bearer ${out.match(/fc-[0-9a-f]{32}/)![0]}` };
  }
  const file = { filename: 'a.txt', contentType: 'text/plain', body: 'private words' };

  test('a key without the parse endpoint group, or without the requested format, is refused', async () => {
    const scrapeOnly = await upload(trawl, file, {}, { headers: await key(false, '--endpoints', 'scrape') });
    expect(scrapeOnly.status).toBe(403);
    expect(scrapeOnly.body.error).toContain('parse');
    const markdownOnly = await key(false, '--formats', 'markdown');
    const html = await upload(trawl, file, { formats: ['html'] }, { headers: markdownOnly });
    expect(html.status).toBe(403);
    expect(html.body.error).toContain('html');
    expect((await upload(trawl, file, { formats: ['markdown'] }, { headers: markdownOnly })).status).toBe(200);
  });

  test('zero data retention: the document is returned and never stored', async () => {
    const r = await upload(trawl, file, { zeroDataRetention: true }, { headers: await key(true) });
    expect(r.status).toBe(200);
    expect(r.body.data.markdown).toBe('private words');
    const rows = await trawl.running.services.db.query('select id from documents where id = $1', [r.body.data.metadata.scrapeId]);
    expect(rows).toHaveLength(0);
  });
});

describe('after every upload above', () => {
  test('no upload is left in the blob store', () => {
    const dir = join(trawl.running.services.config.dataDir, 'blobs');
    let files: string[] = [];
    try {
      files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
    } catch {
      // never created: nothing left either
    }
    expect(files).toEqual([]);
  });
});
