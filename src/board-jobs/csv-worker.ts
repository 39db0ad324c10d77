/// <reference lib="webworker" />
import { decodeCsv } from './encoding';
import { analyseCsv } from './analyse';

/**
 * The CSV import's Web Worker: decodes a file's bytes (encoding detection) or takes pasted text,
 * and parses it with papaparse off the main thread. Answers {text, encoding, analysis} or {error}.
 */
type Request = { bytes?: ArrayBuffer; text?: string; delimiter?: string; header?: boolean };

self.onmessage = (event: MessageEvent<Request>) => {
  try {
    const { bytes, delimiter, header } = event.data;
    const decoded = bytes ? decodeCsv(new Uint8Array(bytes)) : { text: event.data.text ?? '', encoding: 'utf-8' as const };
    const analysis = analyseCsv(decoded.text, { delimiter, header });
    (self as unknown as Worker).postMessage({ text: decoded.text, encoding: decoded.encoding, analysis });
  } catch (error) {
    (self as unknown as Worker).postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
