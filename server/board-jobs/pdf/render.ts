import { pdfDocumentClass } from './libraries';
import { drawLine, drawParagraph, fit, registerFonts, textWidth, wrap, type TextStyle } from './text';

/**
 * The two PDF documents of the export (decision 0225), drawn with pdfkit: a view as a table (its
 * columns as shown, one row per item, the filters and sort it applies said at the top) and one
 * item (its values, then its comments). Every page has the workspace's name and logo at the top
 * and "page n of m" at the bottom. Texts come translated (the caller's `words`); `rtl` mirrors
 * the page (columns from the right) for a reader whose language is written right to left.
 */

export interface PdfFrame {
  workspace: string;
  /** PNG or JPEG bytes; other formats are left out (pdfkit draws those two). */
  logo?: Buffer | null;
  title: string;
  /** Lines under the title (board, filters, sort, who exported it and when). */
  subtitle: string[];
  rtl: boolean;
  /** "Page {n} of {total}" in the reader's language. */
  pageLabel: (n: number, total: number) => string;
}

const INK = '#1f2328';
const MUTED = '#59636e';
const RULE = '#d0d7de';
const MARGIN = 36;

function newDocument(layout: 'portrait' | 'landscape', frame: PdfFrame): PDFKit.PDFDocument {
  const doc = new (pdfDocumentClass())({ size: 'A4', layout, margin: MARGIN, bufferPages: true, info: { Title: frame.title, Author: frame.workspace, Creator: 'Cairn' }, lang: frame.rtl ? 'ar' : undefined } as PDFKit.PDFDocumentOptions);
  registerFonts(doc);
  return doc;
}

function isImage(bytes: Buffer | null | undefined): bytes is Buffer {
  if (!bytes || bytes.length < 8) return false;
  const png = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  return png || jpeg;
}

/** The workspace line at the top of a page; answers where the page's content starts. */
function pageHead(doc: PDFKit.PDFDocument, frame: PdfFrame): number {
  const width = doc.page.width - 2 * MARGIN;
  let x = MARGIN;
  const logoSize = 22;
  if (isImage(frame.logo)) {
    try {
      const lx = frame.rtl ? MARGIN + width - logoSize : MARGIN;
      doc.image(frame.logo, lx, MARGIN - 6, { fit: [logoSize, logoSize] });
      if (!frame.rtl) x += logoSize + 8;
    } catch {
      // A damaged image: the name alone.
    }
  }
  const nameWidth = width - (isImage(frame.logo) ? logoSize + 8 : 0);
  drawLine(doc, fit(frame.workspace, nameWidth, { size: 10, weight: 'bold' }), x, MARGIN, nameWidth, { size: 10, weight: 'bold', color: MUTED, align: frame.rtl ? 'end' : 'start' });
  doc.moveTo(MARGIN, MARGIN + 22).lineTo(MARGIN + width, MARGIN + 22).lineWidth(0.5).strokeColor(RULE).stroke();
  return MARGIN + 30;
}

/** Title and subtitle under the first page's head. */
function titleBlock(doc: PDFKit.PDFDocument, frame: PdfFrame, y: number): number {
  const width = doc.page.width - 2 * MARGIN;
  const align = frame.rtl ? 'end' : 'start';
  for (const line of wrap(frame.title, width, { size: 18, weight: 'bold' }, 3)) {
    drawLine(doc, line, MARGIN, y, width, { size: 18, weight: 'bold', color: INK, align });
    y += 24;
  }
  for (const text of frame.subtitle) {
    for (const line of wrap(text, width, { size: 9 }, 4)) {
      drawLine(doc, line, MARGIN, y, width, { size: 9, color: MUTED, align });
      y += 13;
    }
  }
  return y + 8;
}

/** "Page n of m" on every page, once the page count is known. */
function pageNumbers(doc: PDFKit.PDFDocument, frame: PdfFrame): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const width = doc.page.width - 2 * MARGIN;
    drawLine(doc, frame.pageLabel(i + 1, range.count), MARGIN, doc.page.height - MARGIN + 8, width, { size: 8, color: MUTED, align: 'end' });
  }
}

async function finish(doc: PDFKit.PDFDocument, frame: PdfFrame): Promise<Buffer> {
  pageNumbers(doc, frame);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

export interface TableInput {
  header: string[];
  rows: string[][];
  /** A note under the table when columns had to be left out for the page's width. */
  columnsLeftOut?: string;
  /** Said when the view shows no item. */
  empty: string;
  /** Called every 100 rows drawn. */
  onRows?: (drawn: number) => Promise<void> | void;
}

const CELL: TextStyle = { size: 8 };
const HEAD: TextStyle = { size: 8, weight: 'bold' };
/** Narrowest column; more columns than fit at this width are left out (the CSV export has them all). */
export const MIN_COLUMN = 56;
/** Lines a cell may take before it is cut with an ellipsis. */
const CELL_LINES = 3;

/** How many columns fit across a landscape A4 page. */
export function columnsThatFit(): number {
  return Math.floor((842 - 2 * MARGIN) / MIN_COLUMN);
}

/** A view as a table. */
export async function renderTablePdf(frame: PdfFrame, table: TableInput): Promise<Buffer> {
  const doc = newDocument('landscape', frame);
  const pageWidth = doc.page.width - 2 * MARGIN;
  const bottom = doc.page.height - MARGIN - 14;
  const n = table.header.length;
  // Widths: by the longest text of the header and the first rows, the name column favoured, then scaled to the page.
  const sample = table.rows.slice(0, 200);
  const wants = table.header.map((h, c) => {
    const longest = Math.max(textWidth(h, HEAD), ...sample.map((r) => Math.min(textWidth(r[c] ?? '', CELL), 260)));
    return Math.max(MIN_COLUMN, Math.min(c === 0 ? 240 : 180, longest + 10));
  });
  const sum = wants.reduce((a, b) => a + b, 0);
  const widths = wants.map((w) => (w * pageWidth) / sum);
  const xs: number[] = [];
  let acc = 0;
  for (const w of widths) {
    xs.push(frame.rtl ? MARGIN + pageWidth - acc - w : MARGIN + acc);
    acc += w;
  }
  const pad = 3;
  const lineHeight = CELL.size * 1.35;
  const align = frame.rtl ? 'end' : 'start';

  const header = (y: number): number => {
    const lines = table.header.map((h, c) => wrap(h, widths[c]! - 2 * pad, HEAD, 2));
    const height = Math.max(1, ...lines.map((l) => l.length)) * lineHeight + 2 * pad;
    doc.rect(MARGIN, y, pageWidth, height).fill('#f6f8fa');
    lines.forEach((ls, c) => ls.forEach((line, i) => drawLine(doc, line, xs[c]! + pad, y + pad + i * lineHeight, widths[c]! - 2 * pad, { ...HEAD, color: INK, align })));
    doc.moveTo(MARGIN, y + height).lineTo(MARGIN + pageWidth, y + height).lineWidth(0.75).strokeColor(RULE).stroke();
    return y + height;
  };

  let y = titleBlock(doc, frame, pageHead(doc, frame));
  if (n > 0) y = header(y);
  if (table.rows.length === 0) {
    drawLine(doc, table.empty, MARGIN, y + 8, pageWidth, { size: 10, color: MUTED, align });
    y += 24;
  }
  let drawn = 0;
  for (const row of table.rows) {
    const lines = row.map((text, c) => {
      const ls = wrap(text, widths[c]! - 2 * pad, CELL, CELL_LINES + 1);
      if (ls.length > CELL_LINES) {
        ls.length = CELL_LINES;
        ls[CELL_LINES - 1] = fit(`${ls[CELL_LINES - 1]}…`, widths[c]! - 2 * pad, CELL);
      }
      return ls;
    });
    const height = Math.max(1, ...lines.map((l) => l.length)) * lineHeight + 2 * pad;
    if (y + height > bottom) {
      doc.addPage();
      y = header(pageHead(doc, frame));
    }
    lines.forEach((ls, c) => ls.forEach((line, i) => drawLine(doc, line, xs[c]! + pad, y + pad + i * lineHeight, widths[c]! - 2 * pad, { ...CELL, color: INK, align })));
    y += height;
    doc.moveTo(MARGIN, y).lineTo(MARGIN + pageWidth, y).lineWidth(0.25).strokeColor(RULE).stroke();
    drawn++;
    if (drawn % 100 === 0) await table.onRows?.(drawn);
  }
  if (table.columnsLeftOut) {
    if (y + 20 > bottom) {
      doc.addPage();
      y = pageHead(doc, frame);
    }
    drawLine(doc, table.columnsLeftOut, MARGIN, y + 6, pageWidth, { size: 8, color: MUTED, align });
  }
  return finish(doc, frame);
}

export interface ItemInput {
  fields: { name: string; value: string }[];
  commentsHeading: string;
  noComments: string;
  comments: { author: string; when: string; text: string }[];
}

/** One item: its values as a two-column list, then its comments oldest first. */
export async function renderItemPdf(frame: PdfFrame, item: ItemInput): Promise<Buffer> {
  const doc = newDocument('portrait', frame);
  const width = doc.page.width - 2 * MARGIN;
  const bottom = doc.page.height - MARGIN - 14;
  const align = frame.rtl ? 'end' : 'start';
  const labelWidth = Math.min(170, width * 0.32);
  const valueWidth = width - labelWidth - 10;
  const labelX = frame.rtl ? MARGIN + width - labelWidth : MARGIN;
  const valueX = frame.rtl ? MARGIN : MARGIN + labelWidth + 10;
  const style: TextStyle = { size: 10 };
  const lineHeight = style.size * 1.45;
  const room = (y: number, needed: number): number => {
    if (y + needed <= bottom) return y;
    doc.addPage();
    return pageHead(doc, frame);
  };

  let y = titleBlock(doc, frame, pageHead(doc, frame));
  for (const field of item.fields) {
    const labelLines = wrap(field.name, labelWidth, { size: 10, weight: 'bold' }, 3);
    const valueLines = field.value ? wrap(field.value, valueWidth, style) : ['—'];
    const rows = Math.max(labelLines.length, valueLines.length);
    for (let i = 0; i < rows; i++) {
      const before = y;
      y = room(y, lineHeight);
      if (y < before && i > 0) {
        // continued on a new page
      }
      if (labelLines[i]) drawLine(doc, labelLines[i]!, labelX, y, labelWidth, { size: 10, weight: 'bold', color: MUTED, align });
      if (valueLines[i] !== undefined) drawLine(doc, valueLines[i]!, valueX, y, valueWidth, { ...style, color: INK, align });
      y += lineHeight;
    }
    y += 4;
  }

  y = room(y + 10, 40);
  drawLine(doc, item.commentsHeading, MARGIN, y, width, { size: 13, weight: 'bold', color: INK, align });
  y += 20;
  doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 6;
  if (item.comments.length === 0) {
    drawLine(doc, item.noComments, MARGIN, y, width, { size: 10, color: MUTED, align });
  }
  for (const comment of item.comments) {
    y = room(y, 2 * lineHeight);
    drawLine(doc, `${comment.author} · ${comment.when}`, MARGIN, y, width, { size: 9, weight: 'bold', color: MUTED, align });
    y += 14;
    y = drawParagraph(doc, comment.text, MARGIN, y, width, style, (at, h) => room(at, h));
    y += 8;
  }
  return finish(doc, frame);
}
