/**
 * The `pptx` parser: PowerPoint presentations (compat.md §14) read with officeparser, one section per
 * slide (speaker notes included), as HTML for the normal cleaning and markdown conversion. The ZIP
 * container is checked for zip bombs first (office/officeparser.ts).
 */
import { defineParser } from '../core/plugin.ts';
import { zipHas } from './office/zip.ts';

export default defineParser({
  name: 'pptx',
  accepts: {
    mime: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ext: ['.pptx'],
    magic: (bytes) => zipHas(bytes, 'ppt/presentation.xml'),
  },
  async parse(input, _options, ctx) {
    const { readOffice } = await import('./office/officeparser.ts');
    return readOffice('pptx', input.bytes, ctx, (entries) =>
      entries.some((e) => e.name === 'ppt/presentation.xml') ? undefined : 'the file is a ZIP but not a PowerPoint presentation (no ppt/presentation.xml)',
    );
  },
});
