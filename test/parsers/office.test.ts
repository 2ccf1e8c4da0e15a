/**
 * Office and text parsers on files made here: DOCX (mammoth, to HTML), XLSX (exceljs, tables per
 * sheet), CSV/TSV, plain text, markdown and JSON; zip bombs and broken containers are refused before
 * any library sees them; content sniffing tells the formats apart.
 */
import { describe, expect, test } from 'bun:test';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import docxParser from '../../parsers/docx.ts';
import xlsxParser from '../../parsers/xlsx.ts';
import csvParser from '../../parsers/csv.ts';
import textParser from '../../parsers/text.ts';
import pdfParser from '../../parsers/pdf.ts';
import imageParser from '../../parsers/image.ts';
import { TrawlError } from '../../core/errors.ts';
import type { ParserPlugin } from '../../core/plugin.ts';
import { docx, wml, zip } from './zip-writer.ts';
import { makePdf, renderPng } from './make-pdf.ts';
import { pluginContext } from './helpers.ts';

/** Limit for tests that start workers and parse whole files on a slow machine, ms. */
const SLOW = 30_000;

function run(parser: ParserPlugin, bytes: Uint8Array, contentType: string, filename?: string) {
  return parser.parse({ bytes, contentType, url: `file:///${filename ?? 'upload'}`, filename }, { type: parser.name }, pluginContext());
}

async function failure(p: Promise<unknown>): Promise<TrawlError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TrawlError);
    return e as TrawlError;
  }
  throw new Error('expected a TrawlError');
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function workbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  wb.title = 'Sales 2024';
  const s1 = wb.addWorksheet('Q1 Sales');
  s1.addRow(['Region', 'Units', 'Price', 'Total', 'Date', 'Link']);
  s1.addRow(['North', 12, 2.5, { formula: 'B2*C2', result: 30 }, new Date(Date.UTC(2024, 0, 31)), { text: 'report', hyperlink: 'https://site.example/r' }]);
  s1.addRow(['South', 7, 0.1 + 0.2, { formula: 'B3*C3', result: 2.1 }, new Date(Date.UTC(2024, 1, 1, 13, 30)), '']);
  s1.addRow([]);
  s1.addRow([{ richText: [{ text: 'Grand ' }, { text: 'total', font: { bold: true } }] }, 19, null, 32.1]);
  const s2 = wb.addWorksheet('Notes');
  s2.mergeCells('A1:B1');
  s2.getCell('A1').value = 'Merged title';
  s2.addRow(['left', 'right']);
  wb.addWorksheet('Secret', { state: 'veryHidden' }).addRow(['hidden']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('docx', () => {
  test('headings, tables and document properties', async () => {
    const bytes = docx(
      wml.p('Memo to staff', 'Heading1') + wml.p('The office moves on Monday.') + wml.table([['Room', 'Floor'], ['Library', '2'], ['Lab', '3']]) + wml.bold('Bring your badge.'),
    );
    const doc = await run(docxParser, bytes, DOCX, 'memo.docx');
    expect(doc.markdown).toBeUndefined();
    expect(doc.html).toContain('<title>Quarterly Memo</title>');
    expect(doc.html).toContain('<h1>Memo to staff</h1>');
    expect(doc.html).toContain('<p>The office moves on Monday.</p>');
    expect(doc.html).toMatch(/<table>.*<td><p>Library<\/p><\/td><td><p>2<\/p><\/td>.*<\/table>/s);
    expect(doc.html).toContain('<strong>Bring your badge.</strong>');
    expect(doc.metadata).toMatchObject({ title: 'Quarterly Memo', author: 'Ada Lovelace', creationDate: '2024-03-01T10:00:00Z' });
  }, SLOW);

  test('zip bombs are refused before mammoth opens them', async () => {
    const big = docx(wml.p('x')).slice(); // a real document to start from
    expect((await run(docxParser, big, DOCX)).html).toContain('x');
    const ratio = zip([{ name: 'word/document.xml', data: new Uint8Array(50 * 1024 * 1024) }]);
    expect(ratio.length).toBeLessThan(200_000);
    const e1 = await failure(run(docxParser, ratio, DOCX));
    expect(e1.code).toBe('PARSE_FAILED');
    expect(e1.message).toContain('zip bomb');
    const liar = zip([{ name: 'word/document.xml', data: new Uint8Array(20 * 1024 * 1024), declaredSize: 1000 }]);
    const e2 = await failure(run(docxParser, liar, DOCX));
    expect(e2.message).toContain('larger than it declares');
    const many = zip(Array.from({ length: 20_001 }, (_, i) => ({ name: `word/media/${i}.xml`, data: '' })));
    expect((await failure(run(docxParser, many, DOCX))).message).toContain('20001 entries');
  }, SLOW);

  test('broken containers and non-Word zips fail clearly', async () => {
    expect((await failure(run(docxParser, new TextEncoder().encode('PK not really'), DOCX))).message).toContain('not a readable ZIP');
    expect((await failure(run(docxParser, zip([{ name: 'a.txt', data: 'hi' }]), DOCX))).message).toContain('not a Word document');
    const full = docx(wml.p('text'));
    expect((await failure(run(docxParser, full.slice(0, full.length - 30), DOCX))).code).toBe('PARSE_FAILED');
  });
});

describe('xlsx', () => {
  test('one table per visible sheet with typed cells', async () => {
    const doc = await run(xlsxParser, await workbook(), XLSX, 'sales.xlsx');
    expect(doc.markdown).toBe(
      [
        '## Q1 Sales',
        '',
        '| Region | Units | Price | Total | Date | Link |',
        '| --- | --- | --- | --- | --- | --- |',
        '| North | 12 | 2.5 | 30 | 2024-01-31 | [report](https://site.example/r) |',
        '| South | 7 | 0.3 | 2.1 | 2024-02-01T13:30:00Z |  |',
        '| Grand total | 19 |  | 32.1 |  |  |',
        '',
        '## Notes',
        '',
        '| Merged title |  |',
        '| --- | --- |',
        '| left | right |',
      ].join('\n'),
    );
    expect(doc.metadata).toMatchObject({ sheets: ['Q1 Sales', 'Notes'] });
  });

  test('a damaged workbook fails clearly', async () => {
    const e = await failure(run(xlsxParser, zip([{ name: 'xl/workbook.xml', data: '<not xml' }]), XLSX));
    expect(e.code).toBe('PARSE_FAILED');
    expect(e.message).toStartWith('[xlsx]');
  });
});

describe('csv', () => {
  test('semicolons, quotes, line breaks in fields, Windows-1252', async () => {
    const text = 'Name;City;Note\r\n"Müller, Jürgen";Köln;"said ""hi""\r\nthen left"\r\nDupont;Paris;\r\n';
    const doc = await run(csvParser, new Uint8Array(iconv.encode(text, 'windows-1252')), 'text/csv');
    expect(doc.markdown).toBe('| Name | City | Note |\n| --- | --- | --- |\n| Müller, Jürgen | Köln | said "hi" then left |\n| Dupont | Paris |  |');
  });

  test('tabs, pipes in cells, UTF-8 BOM', async () => {
    const bytes = new TextEncoder().encode('\uFEFFa\tb\n1|2\t3\n');
    const doc = await run(csvParser, bytes, 'text/tab-separated-values');
    expect(doc.markdown).toBe('| a | b |\n| --- | --- |\n| 1\\|2 | 3 |');
  });
});

describe('text and json', () => {
  test('plain text and markdown as they are', async () => {
    expect((await run(textParser, new TextEncoder().encode('line one\r\nline *two*\n'), 'text/plain')).markdown).toBe('line one\nline *two*\n');
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from('héllo', 'utf16le'))]);
    expect((await run(textParser, utf16, 'text/plain')).markdown).toBe('héllo');
  });

  test('JSON is pretty-printed in a fence; broken JSON is shown with a warning', async () => {
    const doc = await run(textParser, new TextEncoder().encode('{"a":[1,2],"b":"```"}'), 'application/json');
    expect(doc.markdown).toBe('````json\n{\n  "a": [\n    1,\n    2\n  ],\n  "b": "```"\n}\n````');
    const bad = await run(textParser, new TextEncoder().encode('{"a":'), 'application/octet-stream', 'data.json');
    expect(bad.markdown).toBe('```json\n{"a":\n```');
    expect(bad.warning).toContain('does not parse');
  });
});

describe('content sniffing', () => {
  test('each parser recognizes its own files and no other', async () => {
    const files: [string, Uint8Array][] = [
      ['docx', docx(wml.p('x'))],
      ['xlsx', await workbook()],
      ['pdf', makePdf([{ items: [{ x: 72, y: 72, size: 12, text: 'x' }] }])],
      ['image', renderPng(makePdf([{ items: [] }]), 0, 10)],
    ];
    const parsers = [docxParser, xlsxParser, pdfParser, imageParser];
    for (const [name, bytes] of files) {
      expect(parsers.filter((p) => p.accepts.magic?.(bytes)).map((p) => p.name)).toEqual([name]);
    }
    expect(parsers.some((p) => p.accepts.magic?.(new TextEncoder().encode('<html></html>')))).toBe(false);
  });
});
