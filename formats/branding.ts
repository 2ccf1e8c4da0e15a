/**
 * The `branding` format (interface.md "Branding object"; compat.md §2.1): the page's brand as the
 * browser renders it (colors, fonts, typography, spacing, components, images, logo), read from computed
 * styles and the DOM by a deterministic page script (formats/branding/page-script.ts), no model. It
 * needs JavaScript, so a request with it runs in the browser, which answers the script as an
 * `evaluate` capture. A document the browser did not render (a PDF) or a failed script: `branding`
 * null and a warning.
 */
import { defineFormat } from '../core/plugin.ts';
import { brandingPageScript } from './branding/page-script.ts';

const SCRIPT = brandingPageScript.toString();

export default defineFormat({
  name: 'branding',
  requires: ['js'],
  capture: () => ({ kind: 'evaluate', script: SCRIPT }),
  produce(input) {
    const branding = input.response.captures?.branding;
    if (branding && typeof branding === 'object') return { branding };
    return { branding: null, warning: '[branding] the page was not rendered as HTML in the browser, so no branding could be read.' };
  },
});
