import { describe, expect, it } from 'vitest';
import { fit, isRtl, textWidth, visualRuns, wrap } from '../../server/board-jobs/pdf/text';
import { translateJobText, translatedJob } from '../../server/board-jobs/texts';
import { translator } from '../../server/i18n/catalogs';
import { CsvImportMessages } from '../../schema/csv-import';
import type { BoardJob } from '../../schema/board-jobs';

/** The PDF export's text layout (decision 0225) and the jobs' problems in the reader's language. */

describe('PDF text layout', () => {
  it('picks a font per script: Latin, Latin extended, Cyrillic, Arabic, Chinese, Korean', () => {
    const fonts = (text: string) => visualRuns(text).map((r) => r.font);
    expect(fonts('Plan')).toEqual(['noto-sans-latin-400']);
    expect(fonts('łź')).toEqual(['noto-sans-latin-ext-400']);
    expect(fonts('Ђорђе')).toEqual(['noto-sans-cyrillic-400']);
    expect(fonts('مرحبا')).toEqual(['noto-sans-arabic-arabic-400']);
    expect(fonts('你好')).toEqual(['noto-sans-sc-chinese-simplified-400']);
    expect(fonts('안녕')).toEqual(['noto-sans-kr-korean-400']);
    expect(visualRuns('Plan', 'bold')[0]!.font).toBe('noto-sans-latin-700');
  });

  it('orders a right-to-left line visually: Arabic words from the right, a Latin word and a number inside stay left to right', () => {
    expect(isRtl('مراجعة الخطة')).toBe(true);
    expect(isRtl('Plan مراجعة')).toBe(false);
    // Logical: [مراجعة] [ ] [Q1 2026]: the number after a Latin word goes with it (rule W7), so drawn left to right: “Q1 2026”, then مراجعة.
    const runs = visualRuns('مراجعة Q1 2026');
    const drawn = runs.map((r) => r.text.trim()).filter(Boolean);
    expect(drawn).toEqual(['Q1 2026', 'مراجعة']);
    expect(runs.find((r) => r.text.includes('Q1'))!.rtl).toBe(false);
    // A left-to-right line keeps its order, with the Arabic phrase as one run.
    expect(visualRuns('Review: مراجعة الخطة').map((r) => r.text.trim()).filter(Boolean)).toEqual(['Review:', 'مراجعة الخطة']);
    // Brackets of a right-to-left run of neutrals are mirrored.
    expect(visualRuns('مرحبا (')[0]!.text.trim()).toBe(')');
  });

  it('wraps at spaces, between CJK characters, and cuts what is longer than a line; fits with an ellipsis', () => {
    const style = { size: 10 };
    const lines = wrap('one two three four five six seven eight nine ten', 60, style);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(textWidth(line, style)).toBeLessThanOrEqual(60);
    expect(lines.join(' ')).toBe('one two three four five six seven eight nine ten');
    const cjk = wrap('准备发布会材料准备发布会材料', 40, style);
    expect(cjk.length).toBeGreaterThan(1);
    expect(cjk.join('')).toBe('准备发布会材料准备发布会材料');
    const long = wrap('x'.repeat(200), 50, style);
    expect(long.every((l) => textWidth(l, style) <= 50)).toBe(true);
    expect(long.join('')).toBe('x'.repeat(200));
    expect(wrap('a\nb', 100, style)).toEqual(['a', 'b']);
    const cut = fit('A rather long item name that does not fit', 80, style);
    expect(cut.endsWith('…')).toBe(true);
    expect(textWidth(cut, style)).toBeLessThanOrEqual(80);
    expect(fit('Short', 80, style)).toBe('Short');
  });
});

describe('board job problems in the reader’s language', () => {
  it('translates the CSV problems and failure reasons the server knows, keeps the others', () => {
    const de = translator('de');
    expect(translateJobText(CsvImportMessages.emptyRow, de)).toBe('leere Zeile');
    expect(translateJobText(CsvImportMessages.fieldCount(3, 5), de)).toBe('hat 3 Felder, die Kopfzeile hat 5');
    expect(translateJobText('enter a number', translator('ar'))).toBe('أدخل رقمًا');
    expect(translateJobText('something new', de)).toBe('something new');
    expect(translateJobText(CsvImportMessages.emptyRow, translator('en'))).toBe('empty row');
    const job = { errors: [{ row: 2, message: 'enter a valid date', column: 'Due' }], error: 'You may no longer add items there.' } as unknown as BoardJob;
    const shown = translatedJob(job, translator('fr'));
    expect(shown.errors[0]).toEqual({ row: 2, column: 'Due', message: 'saisissez une date valide' });
    expect(shown.error).toBe('Vous ne pouvez plus y ajouter d’éléments.');
  });
});
