/**
 * The `epub` parser: EPUB e-books (compat.md §14) read with officeparser, the chapters in reading
 * order, as HTML for the normal cleaning and markdown conversion. Recognized by the container's
 * `mimetype` entry; the ZIP is checked for zip bombs first (office/officeparser.ts).
 */
import { defineParser } from '../core/plugin.ts';
import { hasZipMimetype, zipMimetype } from './office/officeparser.ts';

const MIME = 'application/epub+zip';

export default defineParser({
  name: 'epub',
  accepts: { mime: [MIME], ext: ['.epub'], magic: (bytes) => hasZipMimetype(bytes, MIME) },
  async parse(input, _options, ctx) {
    const { readOffice } = await import('./office/officeparser.ts');
    return readOffice('epub', input.bytes, ctx, (entries) =>
      zipMimetype(input.bytes, entries) === MIME && entries.some((e) => e.name === 'META-INF/container.xml')
        ? undefined
        : `the file is not an EPUB (its mimetype entry is not ${MIME}, or it has no META-INF/container.xml)`,
    );
  },
});
