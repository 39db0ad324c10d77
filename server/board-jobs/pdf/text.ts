import fs from 'node:fs';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import type * as Fontkit from 'fontkit';
import { fontkit } from './libraries';
import bidiFactory from 'bidi-js';
import type PDFKit from 'pdfkit';

/**
 * Text in the PDF export (decision 0225): a chain of Noto fonts that together cover the app's
 * eleven languages (Latin with its extensions, Cyrillic, Greek, Arabic, Chinese, Korean), each
 * character set in the first font that has it; lines wrapped on our side and each line put in
 * visual order by the Unicode bidirectional algorithm (bidi-js), so Arabic reads right to left
 * with numbers and Latin words inside it left to right. Shaping (joined Arabic letters) is
 * fontkit's, which pdfkit calls for every run. Fonts come from the @fontsource npm packages as
 * WOFF (fontkit cannot subset composite glyphs of WOFF2 files).
 */

const require = createRequire(import.meta.url);
const fontFile = (pkg: string, subset: string, weight: number) => require.resolve(`@fontsource/${pkg}/files/${pkg}-${subset}-${weight}-normal.woff`);

/** The chain, in the order a character looks for its font. */
const CHAIN: [pkg: string, subset: string][] = [
  ['noto-sans', 'latin'],
  ['noto-sans', 'latin-ext'],
  ['noto-sans', 'cyrillic'],
  ['noto-sans', 'cyrillic-ext'],
  ['noto-sans', 'greek'],
  ['noto-sans', 'vietnamese'],
  ['noto-sans-arabic', 'arabic'],
  ['noto-sans-sc', 'chinese-simplified'],
  ['noto-sans-kr', 'korean'],
  ['noto-sans-sc', 'symbols'],
];

export type Weight = 'regular' | 'bold';

interface ChainFont {
  name: string;
  path: string;
  /** The font as plain TrueType, unpacked on first use (the Chinese and Korean files are 1–2 MB each). */
  sfnt?: Buffer;
  parsed?: Fontkit.Font;
}

/**
 * A WOFF file as the TrueType/OpenType file it wraps: each table inflated once with Node's zlib.
 * fontkit reads WOFF itself, but inflates a table (in JavaScript) every time it reads from it:
 * a 1,000-row PDF spent 13 of its 22 seconds there.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) return woff; // not 'wOFF': already a font file
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables: { tag: number; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < numTables; i++) {
    const at = 44 + i * 20;
    const tag = woff.readUInt32BE(at);
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const checksum = woff.readUInt32BE(at + 16);
    const raw = woff.subarray(offset, offset + compLength);
    tables.push({ tag, checksum, data: compLength < origLength ? zlib.inflateSync(raw) : Buffer.from(raw) });
  }
  tables.sort((a, b) => a.tag - b.tag);
  const pad = (n: number) => (n + 3) & ~3;
  const size = 12 + 16 * numTables + tables.reduce((sum, t) => sum + pad(t.data.length), 0);
  const out = Buffer.alloc(size);
  let power = 1;
  let log = 0;
  while (power * 2 <= numTables) (power *= 2), log++;
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(power * 16, 6);
  out.writeUInt16BE(log, 8);
  out.writeUInt16BE(numTables * 16 - power * 16, 10);
  let offset = 12 + 16 * numTables;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    out.writeUInt32BE(t.tag, at);
    out.writeUInt32BE(t.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(t.data.length, at + 12);
    t.data.copy(out, offset);
    offset += pad(t.data.length);
  });
  return out;
}

function sfntOf(font: ChainFont): Buffer {
  return (font.sfnt ??= woffToSfnt(fs.readFileSync(font.path)));
}

const chains = new Map<Weight, ChainFont[]>();

function chainOf(weight: Weight): ChainFont[] {
  let chain = chains.get(weight);
  if (!chain) {
    const w = weight === 'bold' ? 700 : 400;
    chain = [];
    for (const [pkg, subset] of CHAIN) {
      try {
        chain.push({ name: `${pkg}-${subset}-${w}`, path: fontFile(pkg, subset, w) });
      } catch {
        // A subset this package does not ship at this weight.
      }
    }
    chains.set(weight, chain);
  }
  return chain;
}

function parsed(font: ChainFont): Fontkit.Font {
  return (font.parsed ??= fontkit().create(sfntOf(font)));
}

/**
 * Registers the chain's fonts in a document, unpacked once per process (pdfkit parses and embeds
 * only those a run uses). Each document parses its own copy: fontkit remembers the characters it
 * first saw for a glyph, and the PDF's text layer (copy, search) is built from that, so a font
 * shared across documents would make one document's text depend on another's.
 */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  for (const weight of ['regular', 'bold'] as const) for (const f of chainOf(weight)) doc.registerFont(f.name, sfntOf(f));
}

/** Index in the chain of the font for a code point (the first that has it; the first font when none does). */
const fontIndexCache = new Map<ChainFont[], Map<number, number>>();
function fontIndex(chain: ChainFont[], codePoint: number): number {
  let cache = fontIndexCache.get(chain);
  if (!cache) fontIndexCache.set(chain, (cache = new Map()));
  let index = cache.get(codePoint);
  if (index === undefined) {
    index = 0;
    for (let i = 0; i < chain.length; i++) {
      if (parsed(chain[i]!).hasGlyphForCodePoint(codePoint)) {
        index = i;
        break;
      }
    }
    cache.set(codePoint, index);
  }
  return index;
}

const NEUTRAL = /[\s\p{P}\p{S}\p{M}\p{Cf}]/u;
const RTL_CHAR = /[\u0590-\u08FF\uFB1D-\uFEFF]/u;

interface Run {
  text: string;
  font: number;
  level: number;
}

const bidi = bidiFactory();

/** Splits a line into runs of one font and one bidi level (logical order). */
function runsOf(text: string, weight: Weight, rtl: boolean): Run[] {
  const chain = chainOf(weight);
  // Text without a right-to-left character and in a left-to-right paragraph is all level 0.
  const levels = rtl || RTL_CHAR.test(text) ? bidi.getEmbeddingLevels(text, rtl ? 'rtl' : 'ltr').levels : null;
  const runs: Run[] = [];
  let i = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const level = levels ? levels[i]! : 0;
    const last = runs[runs.length - 1];
    // Spaces, punctuation and marks stay in the run before them when its font has them (no split inside an Arabic phrase).
    let font = last && NEUTRAL.test(ch) && parsed(chain[last.font]!).hasGlyphForCodePoint(cp) ? last.font : fontIndex(chain, cp);
    if (cp === 0x20 && last) font = last.font;
    if (last && last.font === font && last.level === level) last.text += ch;
    else runs.push({ text: ch, font, level });
    i += ch.length;
  }
  return runs;
}

/** The runs in visual order (rule L2: reverse every sequence at or above each odd level, highest first). */
function visualOrder(runs: Run[]): Run[] {
  const out = [...runs];
  const max = Math.max(0, ...out.map((r) => r.level));
  const minOdd = Math.min(...out.map((r) => r.level).filter((l) => l % 2 === 1), Infinity);
  for (let level = max; level >= minOdd && level > 0; level--) {
    for (let i = 0; i < out.length; ) {
      if (out[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && out[j]!.level >= level) j++;
      out.splice(i, j - i, ...out.slice(i, j).reverse());
      i = j;
    }
  }
  return out;
}

const MIRROR: Record<string, string> = { '(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<', '«': '»', '»': '«' };

/** What pdfkit is given for a run: a right-to-left run of neutrals (not shaped as Arabic) is reversed and mirrored here. */
function drawnText(run: Run, chain: ChainFont[]): string {
  if (run.level % 2 === 0) return run.text;
  const arabic = chain[run.font]!.name.startsWith('noto-sans-arabic');
  if (arabic && /[\u0590-\u08FF\uFB1D-\uFEFF]/u.test(run.text)) return run.text; // fontkit lays a right-to-left script out reversed itself
  return [...run.text].reverse().map((c) => MIRROR[c] ?? c).join('');
}

const widthCache = new Map<string, number>();

function runWidth(run: Run, weight: Weight, size: number): number {
  const chain = chainOf(weight);
  const key = `${weight}\u0000${run.font}\u0000${run.text}`;
  let units = widthCache.get(key);
  if (units === undefined) {
    const font = parsed(chain[run.font]!);
    units = font.layout(run.text).advanceWidth / font.unitsPerEm;
    if (widthCache.size > 50_000) widthCache.clear();
    widthCache.set(key, units);
  }
  return units * size;
}

/** A line as it is drawn, left to right: each run's text as given to pdfkit and its font (for tests). */
export function visualRuns(text: string, weight: Weight = 'regular'): { text: string; font: string; rtl: boolean }[] {
  const chain = chainOf(weight);
  return visualOrder(runsOf(text, weight, isRtl(text))).map((r) => ({ text: drawnText(r, chain), font: chain[r.font]!.name, rtl: r.level % 2 === 1 }));
}

/** Whether a text starts right to left (its first strong character is Arabic or Hebrew). */
export function isRtl(text: string): boolean {
  const m = /[A-Za-z\u00C0-\u024F\u0370-\u04FF\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF]|[\u0590-\u08FF\uFB1D-\uFEFF]/u.exec(text);
  return !!m && /[\u0590-\u08FF\uFB1D-\uFEFF]/u.test(m[0]);
}

export interface TextStyle {
  size: number;
  weight?: Weight;
  color?: string;
}

/** The width of a line of text. */
export function textWidth(text: string, style: TextStyle): number {
  const weight = style.weight ?? 'regular';
  return runsOf(text, weight, isRtl(text)).reduce((w, r) => w + runWidth(r, weight, style.size), 0);
}

/** Breaks a paragraph into lines of at most `width` (at spaces; a word wider than a line is cut anywhere; CJK breaks between any two characters). */
export function wrap(text: string, width: number, style: TextStyle, maxLines = Infinity): string[] {
  const lines: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
    const tokens = paragraph.match(/[\u3000-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]|[^\s\u3000-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]+|\s+/gu) ?? [''];
    // Widths add up token by token (a space or a CJK character ends a token, so shaping never spans two).
    let line = '';
    let lineWidth = 0;
    for (const token of tokens) {
      const space = /^\s+$/.test(token);
      const w = textWidth(token, style);
      if (line === '' && space) continue;
      if (line === '' || space || lineWidth + w <= width) {
        line += token;
        lineWidth += w;
      } else {
        lines.push(line.trimEnd());
        line = token;
        lineWidth = w;
      }
      // A single word wider than the line: cut it where it still fits.
      while (lineWidth > width && !/\s$/.test(line) && [...line].length > 1 && textWidth(line, style) > width) {
        const chars = [...line];
        let lo = 1;
        let hi = chars.length - 1;
        while (lo < hi) {
          const mid = Math.ceil((lo + hi) / 2);
          if (textWidth(chars.slice(0, mid).join(''), style) <= width) lo = mid;
          else hi = mid - 1;
        }
        lines.push(chars.slice(0, lo).join(''));
        line = chars.slice(lo).join('');
        lineWidth = textWidth(line, style);
      }
      if (lines.length >= maxLines) break;
    }
    lines.push(line.trimEnd());
    if (lines.length >= maxLines) break;
  }
  if (lines.length > maxLines) lines.length = maxLines;
  return lines;
}

/** Cuts a text to one line of `width`, with an ellipsis when it was cut. */
export function fit(text: string, width: number, style: TextStyle): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (textWidth(one, style) <= width) return one;
  const chars = [...one];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(chars.slice(0, mid).join('') + '…', style) <= width) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join('').trimEnd() + '…';
}

/**
 * Draws one line at (x, y) within `width`: runs in visual order, each in its font. A right-to-left
 * line is aligned to the right edge unless `align` says otherwise.
 */
export function drawLine(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, style: TextStyle & { align?: 'start' | 'end' }): void {
  if (!text) return;
  const weight = style.weight ?? 'regular';
  const chain = chainOf(weight);
  const rtl = isRtl(text);
  const runs = visualOrder(runsOf(text, weight, rtl));
  const total = runs.reduce((w, r) => w + runWidth(r, weight, style.size), 0);
  const atEnd = (style.align === 'end') !== rtl;
  let pen = atEnd ? x + Math.max(0, width - total) : x;
  doc.fillColor(style.color ?? '#1f2328');
  for (const run of runs) {
    const w = runWidth(run, weight, style.size);
    doc.font(chain[run.font]!.name).fontSize(style.size).text(drawnText(run, chain), pen, y, { lineBreak: false });
    pen += w;
  }
}

/** Draws a paragraph wrapped to `width`; answers the y below it. */
export function drawParagraph(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, style: TextStyle, onNewLine?: (y: number, lineHeight: number) => number): number {
  const lineHeight = style.size * 1.45;
  for (const line of wrap(text, width, style)) {
    if (onNewLine) y = onNewLine(y, lineHeight);
    drawLine(doc, line, x, y, width, style);
    y += lineHeight;
  }
  return y;
}
