/**
 * Text patterns of document structure shared by the layout steps: list markers, table-of-contents
 * dot leaders, section numbers.
 */

/** A bullet on its own (`•`, `-`, `*`, `+` ...). */
export const BULLET = /^[•●○◦▪▫■□‣⁃∙·◆◇►▶➢➤✓✔\-–—*+]$/;
/** An enumerator on its own: `1.`, `2)`, `a)`, `(b)`, `iv.`. */
export const ENUMERATOR = /^(\(?\d{1,3}[.)]|\(?[a-z][.)]|\([A-Za-z]\)|\(?[ivx]{1,5}[.)])$/;
/** A section number on its own: `3`, `4.2`, `A.1.`. */
export const SECTION_NUMBER = /^(\d{1,3}(\.\d{1,3})*\.?|[A-Z]\.(\d{1,3}\.?)*)$/;

/** A list item's marker followed by text. */
export const LIST_MARKER = /^([•●○◦▪▫■□‣⁃∙·◆◇►▶➢➤✓✔\-–—*+]|\(?\d{1,3}[.)]|\(?[a-z][.)]|\([A-Za-z]\)|\(?[ivx]{1,5}[.)])\s+\S/;

/** Dot leaders before a page number at the end of a line (tables of contents). */
export const LEADER = /\s*(?:[.·…]\s*){4,}(?=[\divxlcdm]+\s*$)/i;
