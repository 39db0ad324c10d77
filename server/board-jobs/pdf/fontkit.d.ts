// The part of fontkit 2 (pdfkit's font engine) the PDF export uses to choose fonts and measure text.
declare module 'fontkit' {
  export interface GlyphRun {
    advanceWidth: number;
  }
  export interface Font {
    unitsPerEm: number;
    ascent: number;
    descent: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    layout(text: string): GlyphRun;
  }
  export function create(buffer: Buffer): Font;
}
