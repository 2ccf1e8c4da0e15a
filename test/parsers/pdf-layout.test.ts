/**
 * Layout rules of the pdf parser on PDFs built here with mupdf, where the expected structure is known
 * exactly: reading order across two columns under a full-width title, running header and footer
 * across pages, a table from aligned columns, lists, code, captions, and markdown without markers.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import pdf from '../../parsers/pdf.ts';
import { closePdfPool } from '../../parsers/pdf/pool.ts';
import type { ParsedDocument } from '../../core/plugin.ts';
import { type TextItem, makePdf } from './make-pdf.ts';
import { checkBlocks, pluginContext } from './helpers.ts';

/** Limit for tests that start workers and parse whole files on a slow machine, ms. */
const SLOW = 30_000;

afterAll(() => closePdfPool());

const LEFT = [
  'The first column opens with a plain line',
  'of running text that fills its measure and',
  'goes on for a while so that the layout has',
  'enough lines to be recognized as a column',
  'of prose set in a ten point serif face.',
];
const RIGHT = [
  'The second column starts at the same height',
  'but must be read only after the first one,',
  'since readers go down one column before they',
  'move to the top of the next column on the',
  'right side of the page in this document.',
];

function furniture(page: number): TextItem[] {
  return [
    { x: 72, y: 40, size: 9, font: 'Helvetica', text: 'ACME Quarterly Report' },
    { x: 280, y: 760, size: 9, font: 'Helvetica', text: `Page ${page} of 3` },
  ];
}

function pages(): ReturnType<typeof makePdf> {
  const p1: TextItem[] = [...furniture(1), { x: 150, y: 90, size: 22, font: 'Helvetica-Bold', text: 'Annual Results Overview' }];
  p1.push({ x: 72, y: 140, size: 14, font: 'Helvetica-Bold', text: 'Introduction' });
  LEFT.forEach((t, i) => p1.push({ x: 72, y: 170 + i * 12, size: 10, text: t }));
  p1.push({ x: 320, y: 140, size: 14, font: 'Helvetica-Bold', text: 'Method' });
  RIGHT.forEach((t, i) => p1.push({ x: 320, y: 170 + i * 12, size: 10, text: t }));
  LEFT.forEach((t, i) => p1.push({ x: 72, y: 250 + i * 12, size: 10, text: `${t.replace('first', 'left')}` }));
  RIGHT.forEach((t, i) => p1.push({ x: 320, y: 250 + i * 12, size: 10, text: `${t.replace('second', 'right')}` }));

  const p2: TextItem[] = [...furniture(2), { x: 72, y: 90, size: 14, font: 'Helvetica-Bold', text: 'Regional figures' }];
  const rows = [
    ['Region', 'Units', 'Revenue', 'Growth'],
    ['North', '1200', '4.5 M', '+3%'],
    ['South', '980', '3.1 M', '-1%'],
    ['East', '1510', '5.8 M', '+7%'],
    ['West', '770', '2.2 M', '+2%'],
  ];
  rows.forEach((r, i) => r.forEach((cell, j) => p2.push({ x: [72, 200, 300, 420][j]!, y: 130 + i * 14, size: 10, font: i === 0 ? 'Helvetica-Bold' : 'Times-Roman', text: cell })));
  p2.push({ x: 200, y: 215, size: 10, text: 'Table 1: Sales by region' });
  ['1. Collect the regional sales numbers.', '2. Compare them with last quarter.', '3. Publish the report.'].forEach((t, i) =>
    p2.push({ x: 72, y: 260 + i * 14, size: 10, text: t }),
  );
  p2.push({ x: 72, y: 320, size: 10, text: 'Done.' });

  const p3: TextItem[] = [...furniture(3), { x: 72, y: 90, size: 10, text: 'Run the tool like this:' }];
  ['$ acme report --quarter 3', '$ acme publish'].forEach((t, i) => p3.push({ x: 90, y: 115 + i * 12, size: 10, font: 'Courier', text: t }));
  p3.push({ x: 72, y: 160, size: 10, text: 'That is all there is to it.' });
  return makePdf([{ items: p1 }, { items: p2 }, { items: p3 }], { title: 'ACME Report' });
}

async function parse(options: Record<string, unknown>): Promise<ParsedDocument> {
  return pdf.parse({ bytes: pages(), contentType: 'application/octet-stream', url: 'file:///r.pdf' }, { type: 'pdf', mode: 'fast', ...options }, pluginContext());
}

describe('pdf layout', () => {
  let doc: ParsedDocument;
  test('parse', async () => {
    doc = await parse({ blocks: true, pageMarkers: true });
    expect(doc.metadata).toMatchObject({ title: 'ACME Report', numPages: 3 });
  }, SLOW);

  test('title and headings', () => {
    expect(doc.markdown!.startsWith('# Annual Results Overview\n\n## Introduction\n\n')).toBe(true);
    expect(doc.markdown).toContain('\n\n## Method\n\n');
    expect(doc.markdown).toContain('\n\n## Regional figures\n\n');
  });

  test('columns are read one after the other', () => {
    const md = doc.markdown!;
    const at = (s: string) => md.indexOf(s);
    expect(at('The first column opens')).toBeGreaterThan(0);
    expect(at('The left column opens')).toBeGreaterThan(at('The first column opens'));
    expect(at('## Method')).toBeGreaterThan(at('The left column opens'));
    expect(at('The second column starts')).toBeGreaterThan(at('## Method'));
    expect(at('The right column starts')).toBeGreaterThan(at('The second column starts'));
    expect(md).toContain(`${LEFT.join(' ')}\n\n`);
  });

  test('running header and footer are not in the markdown but are blocks', () => {
    expect(doc.markdown).not.toContain('ACME Quarterly Report');
    expect(doc.markdown).not.toMatch(/Page \d of 3/);
    const items = (doc.blocks as { items: { type: string; content: string }[] }[]).flatMap((p) => p.items);
    expect(items.filter((i) => i.type === 'page_header').map((i) => i.content)).toEqual(Array(3).fill('ACME Quarterly Report'));
    expect(items.filter((i) => i.type === 'page_number').map((i) => i.content)).toEqual(['Page 1 of 3', 'Page 2 of 3', 'Page 3 of 3']);
  });

  test('table, caption, numbered list, code', () => {
    const md = doc.markdown!;
    expect(md).toContain(
      '| Region | Units | Revenue | Growth |\n| --- | --- | --- | --- |\n| North | 1200 | 4.5 M | +3% |\n| South | 980 | 3.1 M | -1% |\n| East | 1510 | 5.8 M | +7% |\n| West | 770 | 2.2 M | +2% |\n\nTable 1: Sales by region\n\n',
    );
    expect(md).toContain('\n\n1. Collect the regional sales numbers.\n2. Compare them with last quarter.\n3. Publish the report.\n\nDone.');
    expect(md).toContain('Run the tool like this:\n\n```\n$ acme report --quarter 3\n$ acme publish\n```\n\nThat is all there is to it.');
  });

  test('blocks validate', () => {
    expect(checkBlocks(doc.blocks, doc.markdown!)).toEqual([]);
    const types = (doc.blocks as { items: { type: string }[] }[]).map((p) => p.items.map((i) => i.type));
    expect(types[0]).toContain('title');
    expect(types[1]).toEqual(expect.arrayContaining(['table', 'caption', 'list_item']));
    expect(types[2]).toContain('code');
  });

  test('without markers pages are joined by a blank line', async () => {
    const plain = await parse({});
    expect(plain.markdown).not.toContain('<!-- Page');
    expect(plain.markdown).not.toContain('\n---\n');
    expect(plain.markdown).toContain('right side of the page in this document.\n\n## Regional figures');
    expect(plain.blocks).toBeUndefined();
    expect(plain.pages).toBeUndefined();
  }, SLOW);
});
