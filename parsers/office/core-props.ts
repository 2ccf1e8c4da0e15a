/**
 * Document properties of OOXML files (`docProps/core.xml` in DOCX, XLSX, PPTX): title, author,
 * subject (as `description`), keywords, and the creation and modification dates.
 */
import { parseDocument } from 'htmlparser2';
import { getElementsByTagName, textContent } from 'domutils';
import { readEntryText, type ZipEntry } from './zip.ts';

const FIELDS: [tag: string, key: string][] = [
  ['dc:title', 'title'],
  ['dc:creator', 'author'],
  ['dc:subject', 'description'],
  ['cp:keywords', 'keywords'],
  ['dc:language', 'language'],
  ['dcterms:created', 'creationDate'],
  ['dcterms:modified', 'modifiedDate'],
];

/** Metadata from the core properties part; empty values are left out. */
export function coreProperties(bytes: Uint8Array, entries: ZipEntry[]): Record<string, string> {
  const xml = readEntryText(bytes, entries, 'docProps/core.xml');
  if (!xml) return {};
  const doc = parseDocument(xml, { xmlMode: true });
  const out: Record<string, string> = {};
  for (const [tag, key] of FIELDS) {
    const value = textContent(getElementsByTagName(tag, doc, true, 1)).trim();
    if (value) out[key] = value;
  }
  return out;
}
