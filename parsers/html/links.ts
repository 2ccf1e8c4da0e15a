/**
 * Re-export of core/html/links.ts, where the DOM helpers shared by parsers and formats live (issue 16):
 * parsers keep importing it from here.
 */
export * from '../../core/html/links.ts';
