/**
 * Office, ODF, EPUB and RTF documents made for tests (compat.md §14): pandoc makes odt, pptx, epub and
 * rtf from one markdown text, LibreOffice Writer makes doc from the odt, and ODF spreadsheets and
 * presentations are written directly as ZIPs. Needs the Debian packages pandoc and
 * libreoffice-writer-nogui (bin/setup --test). `makeDocument(ext)` makes each type once per process.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zip } from '../parsers/zip-writer.ts';

export type DocumentType = 'pptx' | 'odt' | 'ods' | 'odp' | 'epub' | 'rtf' | 'doc';

export const MIME: Record<DocumentType, string> = {
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  epub: 'application/epub+zip',
  rtf: 'application/rtf',
  doc: 'application/msword',
};

const NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"',
].join(' ');

/** An ODF package: the stored `mimetype` first, then the manifest and `content.xml`. */
export function odf(kind: 'spreadsheet' | 'presentation', body: string, manifestExtra = '', content?: Uint8Array): Uint8Array {
  const mime = `application/vnd.oasis.opendocument.${kind}`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest ${NS} manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${manifestExtra}</manifest:file-entry></manifest:manifest>`;
  const xml = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS} office:version="1.2"><office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>`;
  return zip([
    { name: 'mimetype', data: mime, store: true },
    { name: 'META-INF/manifest.xml', data: manifest },
    { name: 'content.xml', data: content ?? xml },
  ]);
}

export const cell = (v: string) => `<table:table-cell office:value-type="string"><text:p>${v}</text:p></table:table-cell>`;
export const ODS_BODY = `<table:table table:name="Tides"><table:table-row>${cell('Harbour')}${cell('High water')}</table:table-row><table:table-row>${cell('Quokkaport')}${cell('06:42')}</table:table-row></table:table>`;
export const ODP_BODY = [1, 2].map((n) => `<draw:page draw:name="page${n}"><draw:frame><draw:text-box><text:p>Slide ${n}: quokka ferries cross the bay at dawn.</text:p></draw:text-box></draw:frame></draw:page>`).join('');

export const MARKDOWN = '# Quokka harbour\n\nThe quokka ferry leaves the harbour at dawn and returns with the evening tide.\n\n# Timetable\n\nFerries run every hour until dusk.\n';

let dir: string | undefined;
const made = new Map<DocumentType, Uint8Array>();

function run(cmd: string[], cwd: string): void {
  const r = Bun.spawnSync(cmd, { cwd, env: { ...process.env, HOME: cwd }, stdout: 'pipe', stderr: 'pipe', timeout: 90_000 });
  if (r.exitCode !== 0) throw new Error(`${cmd[0]} failed (${r.exitCode}): ${r.stderr.toString().slice(0, 500)} - install the test packages with bin/setup --test`);
}

/** The sample document of a type (its text is MARKDOWN, or the ODS/ODP bodies), made on first use. */
export function makeDocument(type: DocumentType): Uint8Array {
  const have = made.get(type);
  if (have) return have;
  if (type === 'ods' || type === 'odp') {
    made.set(type, odf(type === 'ods' ? 'spreadsheet' : 'presentation', type === 'ods' ? ODS_BODY : ODP_BODY));
    return made.get(type)!;
  }
  dir ??= mkdtempSync(join(tmpdir(), 'trawl-docs-'));
  if (!made.has('odt') || type !== 'doc') writeFileSync(join(dir, 'in.md'), MARKDOWN);
  if (type === 'doc') {
    makeDocument('odt');
    run(['soffice', `-env:UserInstallation=file://${dir}/lo-profile`, '--headless', '--convert-to', 'doc', '--outdir', dir, join(dir, 'sample.odt')], dir);
  } else {
    run(['pandoc', 'in.md', '-s', '-o', `sample.${type}`, '--metadata', 'title=Quokka book'], dir);
  }
  made.set(type, new Uint8Array(readFileSync(join(dir, `sample.${type}`))));
  return made.get(type)!;
}
