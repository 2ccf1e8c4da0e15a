/** Trawl's version, shown by `trawl version`, `/docs` and logs. */
export const VERSION = '0.1.0';
