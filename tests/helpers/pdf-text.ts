/**
 * The text of a PDF as pdf.js reads it (PDF export tests, decision 0225): one string per page, and
 * the names of the fonts each page uses (embedded subsets are named after the file we gave).
 */
export async function pdfText(bytes: Buffer | Uint8Array): Promise<{ pages: string[]; text: string }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    pages.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  await doc.destroy();
  // Control characters some embedded glyphs map to (a space of the Arabic font) are spaces to a reader.
  const clean = (s: string) => s.replace(/[\u0000-\u001f]/g, ' ');
  return { pages: pages.map(clean), text: clean(pages.join('\n')) };
}
