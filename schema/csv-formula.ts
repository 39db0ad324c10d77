/**
 * CSV formula injection (security review N6, issue #26 part 6). A spreadsheet evaluates a cell that
 * starts with `=`, `+`, `-`, `@`, tab or carriage return (HYPERLINK exfiltration, DDE). Exports
 * write such a cell with a leading `'`, which spreadsheets show as text; imports take it off again.
 * A cell that already starts with `'`s before such a character gets one more, so the round trip
 * export → import gives back exactly the text that was exported (`'=x` ↔ `''=x`).
 */
export const FORMULA_START = /^'*[=+\-@\t\r]/;

/** The cell as an export writes it (papaparse's `escapeFormulae` takes this same pattern). */
export function escapeFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** The cell as an import reads it: one leading `'` off a cell the export escaped. */
export function unescapeFormula(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}
