/**
 * The `html` format: the cleaned HTML of the page (compat.md §2.1), i.e. `FormatInput.cleanedHtml()`:
 * scripts, styles and hidden elements removed, URLs absolute, and onlyMainContent / includeTags /
 * excludeTags applied (parsers/html/clean.ts). Empty string for documents without HTML; the base64
 * text of a file returned unparsed (`parsers: []`), as the reference does.
 */
import { defineFormat } from '../core/plugin.ts';

export default defineFormat({
  name: 'html',
  content: 'markup',
  pure: true,
  unparsed: 'shows',
  produce: (input) => ({ html: input.parsed.rawBase64 ?? input.cleanedHtml() ?? '' }),
});
