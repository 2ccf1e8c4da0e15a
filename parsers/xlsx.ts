/**
 * The `xlsx` parser: Excel workbooks (XLSX, XLSM) with exceljs, one markdown table per worksheet under
 * a `## <sheet name>` heading (very hidden sheets are left out). The ZIP container is checked for zip
 * bombs first; at most MAX_CELLS cells are rendered (a warning says when the rest was cut).
 * ODS is not read: exceljs does not support it and no maintained ODS reader is installed.
 */
import { defineParser } from '../core/plugin.ts';
import { zipHas } from './office/zip.ts';

/** Cells rendered per workbook at most. */
export const MAX_CELLS = 200_000;

export default defineParser({
  name: 'xlsx',
  accepts: {
    mime: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel.sheet.macroenabled.12'],
    ext: ['.xlsx', '.xlsm'],
    magic: (bytes) => zipHas(bytes, 'xl/workbook.xml'),
  },
  async parse(input) {
    const [{ checkZip }, { coreProperties }, { cellText, rowsMarkdown }, { TrawlError }, ExcelJS] = await Promise.all([
      import('./office/zip.ts'),
      import('./office/core-props.ts'),
      import('./office/cells.ts'),
      import('../core/errors.ts'),
      import('exceljs'),
    ]);
    const entries = checkZip(input.bytes, 'xlsx');
    const workbook = new ExcelJS.default.Workbook();
    try {
      await workbook.xlsx.load(Buffer.from(input.bytes) as never);
    } catch (e) {
      throw new TrawlError('PARSE_FAILED', `[xlsx] the workbook could not be read: ${(e as Error).message}`, { cause: e });
    }
    let budget = MAX_CELLS;
    let cut = false;
    const parts: string[] = [];
    const names: string[] = [];
    for (const sheet of workbook.worksheets) {
      if (sheet.state === 'veryHidden') continue;
      names.push(sheet.name);
      const rows: string[][] = [];
      const columns = sheet.actualColumnCount > 0 ? sheet.columnCount : 0;
      sheet.eachRow({ includeEmpty: false }, (row) => {
        if (budget <= 0) {
          cut = true;
          return;
        }
        const cells: string[] = [];
        for (let c = 1; c <= columns; c++) {
          const cell = row.getCell(c);
          cells.push(cell.isMerged && cell.master !== cell ? '' : cellText(cell.value));
        }
        budget -= cells.length;
        rows.push(cells);
      });
      const table = rowsMarkdown(rows);
      parts.push(table ? `## ${sheet.name}\n\n${table}` : `## ${sheet.name}`);
    }
    return {
      markdown: parts.join('\n\n'),
      metadata: { ...coreProperties(input.bytes, entries), sheets: names },
      warning: cut ? `[xlsx] the workbook has more than ${MAX_CELLS} cells; the rest was left out` : undefined,
    };
  },
});
