/** Contract cases of the `xlsx` parser (parsers/xlsx.ts), on a workbook written with exceljs. */
import { expect } from 'bun:test';
import ExcelJS from 'exceljs';
import plugin from '../../../parsers/xlsx.ts';
import { testParser } from '../suites/parser.ts';

async function workbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Tides');
  ws.addRow(['Port', 'High']);
  ws.addRow(['Kiel', '12:04']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

testParser(plugin, [
  {
    name: 'each sheet becomes a markdown table',
    bytes: workbook,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    filename: 'tides.xlsx',
    expect: (doc) => {
      expect(doc.markdown).toContain('Tides');
      expect(doc.markdown).toContain('| Kiel | 12:04 |');
    },
  },
]);
