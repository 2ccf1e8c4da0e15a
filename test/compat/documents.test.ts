/**
 * More document types (compat.md §14; issue 25 item 5): pptx, odt, ods, odp, doc, rtf and epub, each
 * made by the test (pandoc for odt, pptx, epub and rtf; LibreOffice Writer for doc from the odt; ODF
 * spreadsheets and presentations written directly as ZIPs), parsed through `/v2/parse` and scraped
 * from the fixture site, with their text asserted. Bad files (truncated, zip bombs, encrypted, not
 * what they claim) are a clear 422 PARSE_FAILED naming the parser, never a 500. Needs the Debian
 * packages pandoc and libreoffice-writer-nogui (bin/setup --test).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startTrawl, type TestTrawl } from '../helpers/trawl.ts';
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';
import { upload } from '../parse/helpers.ts';
import { zip } from '../parsers/zip-writer.ts';
import { MIME, odf, makeDocument, type DocumentType } from '../helpers/documents.ts';

setDefaultTimeout(120_000);

const files: Record<string, Uint8Array> = {};
let site: FixtureSite;
let trawl: TestTrawl;

beforeAll(async () => {
  for (const ext of Object.keys(MIME) as DocumentType[]) files[ext] = makeDocument(ext);
  const routes: Record<string, { body: Uint8Array; headers: Record<string, string> }> = {};
  for (const [ext, body] of Object.entries(files)) routes[`/files/sample.${ext}`] = { body, headers: { 'content-type': MIME[ext as DocumentType] } };
  site = serveFixtures(routes);
  trawl = await startTrawl({ TRAWL_AUTH: 'off' });
});
afterAll(async () => {
  await trawl?.stop();
  site?.stop();
});

/** What each type's text must contain after markdown conversion. */
const EXPECT: Record<string, string[]> = {
  pptx: ['Quokka harbour', 'The quokka ferry leaves the harbour at dawn'],
  odt: ['# Quokka harbour', 'The quokka ferry leaves the harbour at dawn', 'Ferries run every hour until dusk.'],
  epub: ['Quokka harbour', 'The quokka ferry leaves the harbour at dawn', 'Ferries run every hour until dusk.'],
  rtf: ['Quokka harbour', 'The quokka ferry leaves the harbour at dawn', 'Ferries run every hour until dusk.'],
  doc: ['Quokka harbour', 'The quokka ferry leaves the harbour at dawn', 'Ferries run every hour until dusk.'],
  ods: ['Harbour', 'High water', 'Quokkaport', '06:42'],
  odp: ['Slide 1: quokka ferries cross the bay at dawn.', 'Slide 2: quokka ferries'],
};

describe('parsed from /v2/parse', () => {
  for (const ext of Object.keys(EXPECT)) {
    test(ext, async () => {
      const r = await upload(trawl, { filename: `sample.${ext}`, contentType: MIME[ext as DocumentType], body: files[ext]! }, { formats: ['markdown'] });
      expect([ext, r.status, r.text.slice(0, 300)]).toEqual([ext, 200, expect.any(String)]);
      for (const t of EXPECT[ext]!) expect(r.body.data.markdown).toContain(t);
      expect(r.body.data.warning).toBeUndefined();
      if (['odt', 'epub'].includes(ext)) expect(r.body.data.metadata.title).toBe('Quokka book');
    });
  }

  test('found by content when the name and type say nothing', async () => {
    for (const ext of ['odt', 'ods', 'epub', 'rtf', 'doc', 'pptx']) {
      const r = await upload(trawl, { filename: 'upload.bin', contentType: 'application/octet-stream', body: files[ext]! });
      expect([ext, r.status]).toEqual([ext, 200]);
      expect(r.body.data.markdown).toContain(EXPECT[ext]![0]!);
    }
  });
});

describe('scraped from a URL', () => {
  test('every type', async () => {
    for (const ext of Object.keys(EXPECT)) {
      const r = await trawl.post('/v2/scrape', { url: site.url(`/files/sample.${ext}`), maxAge: 0 });
      expect([ext, r.status]).toEqual([ext, 200]);
      for (const t of EXPECT[ext]!) expect(r.body.data.markdown).toContain(t);
    }
  });
});

describe('bad files are a 422 naming the parser', () => {
  const expect422 = async (ext: string, body: Uint8Array | string, words: string) => {
    const r = await upload(trawl, { filename: `bad.${ext}`, contentType: MIME[ext as DocumentType], body });
    expect([ext, r.status, r.body?.code]).toEqual([ext, 422, 'PARSE_FAILED']);
    expect(r.body.error).toContain(`[${ext}]`);
    expect(r.body.error).toContain(words);
  };

  test('truncated', async () => {
    for (const ext of ['pptx', 'odt', 'ods', 'odp', 'epub', 'doc']) await expect422(ext, files[ext]!.subarray(0, Math.floor(files[ext]!.length / 2)), '');
  });

  test('zip bombs are refused before they are inflated', async () => {
    const huge = new Uint8Array(50 * 1024 * 1024);
    const bombs: Record<string, Uint8Array> = {
      pptx: zip([{ name: 'ppt/presentation.xml', data: huge }]),
      odt: zip([{ name: 'mimetype', data: MIME.odt!, store: true }, { name: 'content.xml', data: huge }]),
      ods: zip([{ name: 'mimetype', data: MIME.ods!, store: true }, { name: 'content.xml', data: huge }]),
      odp: zip([{ name: 'mimetype', data: MIME.odp!, store: true }, { name: 'content.xml', data: huge }]),
      epub: zip([{ name: 'mimetype', data: MIME.epub!, store: true }, { name: 'META-INF/container.xml', data: huge }]),
    };
    for (const [ext, bomb] of Object.entries(bombs)) {
      expect(bomb.length).toBeLessThan(200_000);
      await expect422(ext, bomb, 'zip bomb');
    }
  });

  test('encrypted', async () => {
    // ODF encryption: content.xml is ciphertext and the manifest says how it was encrypted.
    const encryption = '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="AAAA"><manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="AAAAAAAAAAA="/><manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:iteration-count="1024" manifest:salt="AAAAAAAAAAAAAAAAAAAAAA=="/></manifest:encryption-data>';
    await expect422('ods', odf('spreadsheet', '', encryption, crypto.getRandomValues(new Uint8Array(2048))), 'password-protected');
    // Word 97: the FIB's fEncrypted flag (offset 0x0A of the WordDocument stream, which starts with
    // 0xA5EC; a small document keeps the stream in 64-byte mini sectors).
    const doc = new Uint8Array(files.doc!);
    let fib = -1;
    for (let at = 512; at < doc.length; at += 64) if (doc[at] === 0xec && doc[at + 1] === 0xa5) { fib = at; break; }
    expect(fib).toBeGreaterThan(0);
    doc[fib + 0x0b] = doc[fib + 0x0b]! | 0x01;
    await expect422('doc', doc, 'password-protected');
  });

  test('not what the name says', async () => {
    await expect422('rtf', 'Just some plain words, not rich text at all.', 'not an RTF document');
    await expect422('odt', zip([{ name: 'mimetype', data: 'application/zip', store: true }, { name: 'content.xml', data: '<x/>' }]), 'not an OpenDocument text');
    await expect422('pptx', zip([{ name: 'readme.txt', data: 'hello' }]), 'not a PowerPoint presentation');
    await expect422('epub', zip([{ name: 'mimetype', data: MIME.epub!, store: true }]), 'not an EPUB');
  });

  test('scraped from a URL too: 422, not 500', async () => {
    const bad = serveFixtures({
      '/bomb.odt': { body: zip([{ name: 'mimetype', data: MIME.odt!, store: true }, { name: 'content.xml', data: new Uint8Array(50 * 1024 * 1024) }]), headers: { 'content-type': MIME.odt! } },
      '/cut.pptx': { body: files.pptx!.subarray(0, 4000), headers: { 'content-type': MIME.pptx! } },
    });
    try {
      for (const [path, words] of [['/bomb.odt', 'zip bomb'], ['/cut.pptx', '[pptx]']] as const) {
        const r = await trawl.post('/v2/scrape', { url: bad.url(path), maxAge: 0 });
        expect([path, r.status, r.body.code]).toEqual([path, 422, 'PARSE_FAILED']);
        expect(r.body.error).toContain(words);
      }
    } finally {
      bad.stop();
    }
  });

  test('the server keeps serving', async () => {
    const r = await upload(trawl, { filename: 'sample.odt', contentType: MIME.odt, body: files.odt! });
    expect(r.status).toBe(200);
  });
});
