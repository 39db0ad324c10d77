import { createRequire } from 'node:module';
import type PDFKit from 'pdfkit';
import type * as Fontkit from 'fontkit';

/**
 * pdfkit and fontkit, required when the first PDF is drawn rather than when the server's modules
 * load: together they are a large part of a start (and of every test file that starts a server),
 * and most processes never draw a PDF (decision 0367). Both are their CommonJS builds, so pdfkit
 * and the fonts we shape with share one fontkit.
 */
const require = createRequire(import.meta.url);

export function pdfDocumentClass(): typeof PDFKit {
  return require('pdfkit') as typeof PDFKit;
}

export function fontkit(): typeof Fontkit {
  return require('fontkit') as typeof Fontkit;
}
