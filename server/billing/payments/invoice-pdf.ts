import { pdfDocumentClass } from '../../board-jobs/pdf/libraries';
import { drawLine, fit, registerFonts } from '../../board-jobs/pdf/text';
import type { Translate } from '../../i18n/catalogs';
import type { InvoiceView } from './service';
import type { InvoiceLine } from './proration';

/**
 * An invoice as a PDF (decision 0250), drawn with pdfkit and the PDF export's font chain and
 * right-to-left line layout (decision 0225), in the reader's language. This module is loaded on
 * the first download only (server/billing/payments/routes.ts imports it lazily), like the export.
 * Amounts are in minor units; totals are tax-free (Cairn charges no tax; the PDF says so).
 */

export interface InvoicePdfInput {
  invoice: InvoiceView;
  customer: { name: string; email: string };
  seller: string;
  locale: string;
  rtl: boolean;
  l10n: Translate;
}

const INK = '#1f2328';
const MUTED = '#59636e';
const RULE = '#d0d7de';
const MARGIN = 48;

/** A line's words in the reader's language. */
export function lineText(line: InvoiceLine, l10n: Translate, date: (iso: string | null | undefined) => string): string {
  const plan = line.plan_name ?? line.plan ?? '';
  const interval = line.interval === 'month' ? l10n('monthly') : line.interval === 'year' ? l10n('yearly') : l10n('lifetime');
  switch (line.kind) {
    case 'plan':
      return line.to ? l10n('{plan} ({interval}), {from} – {to}', { plan, interval, from: date(line.from), to: date(line.to) }) : l10n('{plan}, lifetime', { plan });
    case 'proration_charge':
      return l10n('Remaining time on {plan} until {to}', { plan, to: date(line.to) });
    case 'proration_credit':
      return l10n('Unused time on {plan} from {from}', { plan, from: date(line.from) });
    case 'coupon':
      return l10n('Coupon {code} ({percent} % off)', { code: line.coupon ?? '', percent: line.percent ?? 0 });
    case 'credit_applied':
      return l10n('Credit from earlier changes');
    case 'credit_carried':
      return l10n('Credit carried to your next invoice');
    default:
      return line.description;
  }
}

export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const { invoice, l10n, rtl } = input;
  const money = new Intl.NumberFormat(input.locale, { style: 'currency', currency: invoice.currency });
  const amount = (minor: number) => money.format(minor / 100);
  const dateFormat = new Intl.DateTimeFormat(input.locale, { dateStyle: 'long', timeZone: 'UTC' });
  const date = (iso: string | null | undefined) => (iso ? dateFormat.format(new Date(iso)) : '');
  const title = l10n('Invoice {number}', { number: invoice.number ?? '' });

  const doc = new (pdfDocumentClass())({ size: 'A4', margin: MARGIN, info: { Title: title, Author: input.seller, Creator: 'Cairn' }, lang: input.locale } as PDFKit.PDFDocumentOptions);
  registerFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const start = rtl ? ('end' as const) : ('start' as const);
  const end = rtl ? ('start' as const) : ('end' as const);
  let y = MARGIN;
  drawLine(doc, input.seller, MARGIN, y, width, { size: 11, weight: 'bold', color: MUTED, align: start });
  y += 28;
  drawLine(doc, title, MARGIN, y, width, { size: 20, weight: 'bold', color: INK, align: start });
  y += 36;
  const facts: [string, string][] = [
    [l10n('Invoice number'), invoice.number ?? ''],
    [l10n('Date paid'), date(invoice.paid_at)],
    [l10n('Billed to'), `${input.customer.name} <${input.customer.email}>`],
  ];
  if (invoice.card) facts.push([l10n('Paid with'), l10n('{brand} ending in {last4}', { brand: invoice.card.brand.toUpperCase(), last4: invoice.card.last4 })]);
  if (invoice.status === 'refunded') facts.push([l10n('Status'), l10n('Refunded')]);
  const labelWidth = 130;
  for (const [label, value] of facts) {
    const lx = rtl ? MARGIN + width - labelWidth : MARGIN;
    const vx = rtl ? MARGIN : MARGIN + labelWidth;
    drawLine(doc, label, lx, y, labelWidth, { size: 10, color: MUTED, align: start });
    drawLine(doc, fit(value, width - labelWidth, { size: 10 }), vx, y, width - labelWidth, { size: 10, color: INK, align: start });
    y += 18;
  }
  y += 16;

  const amountWidth = 110;
  const descWidth = width - amountWidth - 12;
  const descX = rtl ? MARGIN + amountWidth + 12 : MARGIN;
  const amountX = rtl ? MARGIN : MARGIN + width - amountWidth;
  drawLine(doc, l10n('Description'), descX, y, descWidth, { size: 10, weight: 'bold', color: MUTED, align: start });
  drawLine(doc, l10n('Amount'), amountX, y, amountWidth, { size: 10, weight: 'bold', color: MUTED, align: end });
  y += 18;
  doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 8;
  for (const line of invoice.lines) {
    if (y > doc.page.height - MARGIN - 80) {
      doc.addPage();
      y = MARGIN;
    }
    drawLine(doc, fit(lineText(line, l10n, date), descWidth, { size: 10 }), descX, y, descWidth, { size: 10, color: INK, align: start });
    drawLine(doc, amount(line.amount), amountX, y, amountWidth, { size: 10, color: INK, align: end });
    y += 20;
  }
  doc.moveTo(MARGIN, y).lineTo(MARGIN + width, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 10;
  const totals: [string, string, boolean][] = [[l10n('Subtotal'), amount(invoice.subtotal), false]];
  if (invoice.discount) totals.push([l10n('Discount'), amount(-invoice.discount), false]);
  totals.push([l10n('Total paid'), amount(invoice.total), true]);
  for (const [label, value, bold] of totals) {
    drawLine(doc, label, descX, y, descWidth, { size: bold ? 12 : 10, weight: bold ? 'bold' : 'regular', color: INK, align: end });
    drawLine(doc, value, amountX, y, amountWidth, { size: bold ? 12 : 10, weight: bold ? 'bold' : 'regular', color: INK, align: end });
    y += bold ? 22 : 18;
  }
  y += 20;
  drawLine(doc, l10n('Amounts in {currency}. No tax is charged.', { currency: invoice.currency }), MARGIN, y, width, { size: 9, color: MUTED, align: start });
  doc.end();
  return done;
}
