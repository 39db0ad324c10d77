/**
 * Which text encoding a CSV file's bytes are in: a byte order mark decides (UTF-8, UTF-16 LE/BE);
 * otherwise UTF-8 when the bytes are valid UTF-8, else Windows-1252 (what spreadsheet apps on
 * Windows write). Pure over bytes, so the Web Worker and the unit tests share it.
 */
export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export function detectEncoding(bytes: Uint8Array): CsvEncoding {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The file's text (without its byte order mark) and the encoding it was read in. */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  const encoding = detectEncoding(bytes);
  // TextDecoder drops a byte order mark by default.
  return { text: new TextDecoder(encoding).decode(bytes), encoding };
}
