/**
 * What the markdown converter needs to know about a tag name, as bit flags looked up once per element
 * (one Map lookup instead of a Set lookup per question). The block, void and meaningful-when-blank
 * lists are turndown's, so whitespace and blank-element handling match the converter Trawl used before.
 */

/** Block element: a whitespace boundary, rendered on its own lines. */
export const BLOCK = 1;
/** Void element: never blank (an `<img>` alone is content); a non-block one keeps the space after it. */
export const VOID = 2;
/** Content even without text (and makes its ancestors non-blank). */
export const MEANINGFUL = 4;
/** Dropped with its content (scripts, styles, media, form widgets). */
export const REMOVE = 8;
/** Has a rule of its own (rules.ts `applyRule`); others keep their content. */
export const RULED = 16;
/** Cell, row or caption: dropped by HTML parsers outside a table (rendered as plain content then). */
export const PART = 32;
/** `thead`/`tbody`/`tfoot`: outside a table one stands for its table (a selection can cut it off). */
export const SECTION = 64;
/** Children not walked as text: `<pre>` (raw text) and `<template>` (inert content). */
export const OPAQUE = 128;
export const BR = 256;
export const TABLE = 512;
/** `td` or `th`. */
export const CELL = 1024;
export const LI = 2048;
export const CODE = 4096;
export const CAPTION = 8192;
export const PRE = 16384;
/** Rules whose result never starts or ends with a newline (`*em*`, `**b**`, code spans, images). */
export const INLINE = 32768;
export const LINK = 65536;

const FLAGS = new Map<string, number>();

function add(flag: number, names: string): void {
  for (const n of names.split(' ')) FLAGS.set(n, (FLAGS.get(n) ?? 0) | flag);
}

add(BLOCK, 'address article aside audio blockquote body canvas center dd dir div dl dt fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html isindex li main menu nav noframes noscript ol output p pre section table tbody td tfoot th thead tr ul');
add(VOID, 'area base br col command embed hr img input keygen link meta param source track wbr');
add(MEANINGFUL, 'a table thead tbody tfoot th td iframe script audio video');
add(REMOVE, 'script style noscript template iframe object embed video audio canvas svg head title select textarea dialog');
add(RULED, 'a em i strong b code li ul ol br img h1 h2 h3 h4 h5 h6 pre blockquote hr del s strike input td th tr thead tbody tfoot caption table');
add(PART, 'td th tr caption');
add(SECTION, 'thead tbody tfoot');
add(OPAQUE, 'pre template');
add(BR, 'br');
add(TABLE, 'table');
add(CELL, 'td th');
add(LI, 'li');
add(CODE, 'code');
add(CAPTION, 'caption');
add(PRE, 'pre');
add(INLINE, 'em i strong b code img');
add(LINK, 'a');

/** The flags of a (lower-case) tag name; 0 for unknown elements. */
export function tagFlags(name: string): number {
  return FLAGS.get(name) ?? 0;
}
