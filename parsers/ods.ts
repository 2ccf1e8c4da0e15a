/**
 * The `ods` parser: OpenDocument spreadsheets (LibreOffice Calc), one table per sheet (compat.md §14), read with officeparser as HTML for
 * the normal cleaning and markdown conversion. Recognized by the container's `mimetype` entry; the ZIP
 * is checked for zip bombs first (office/officeparser.ts).
 */
import { defineParser } from '../core/plugin.ts';
import { hasZipMimetype, zipMimetype } from './office/officeparser.ts';

const MIME = 'application/vnd.oasis.opendocument.spreadsheet';

export default defineParser({
  name: 'ods',
  accepts: { mime: [MIME], ext: ['.ods'], magic: (bytes) => hasZipMimetype(bytes, MIME) },
  async parse(input, _options, ctx) {
    const { readOffice } = await import('./office/officeparser.ts');
    return readOffice('ods', input.bytes, ctx, (entries) =>
      zipMimetype(input.bytes, entries) === MIME && entries.some((e) => e.name === 'content.xml')
        ? undefined
        : `the file is not an OpenDocument spreadsheet (its mimetype entry is not ${MIME}, or it has no content.xml)`,
    );
  },
});
