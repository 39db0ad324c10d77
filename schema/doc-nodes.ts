import { DOC_FILES_MAX } from './doc-records';

/**
 * Rules for what a document body may hold beyond text (issue #13, decision 0215), shared by the
 * Docs editor (src/boards/docs/) and the server (published pages, file references of updates).
 * No yjs or TipTap here: the server's published renderer and the save rules import it too.
 * Not imported by the app shell (doc-records.ts, which the shell's registry reads, does not
 * import this file), so the Docs rules stay in the lazy chunk.
 */

/**
 * An image in a document is a file uploaded as an attachment of its item (POST
 * /api/{teamId}/attachments): `/api/files/attachments/{random}.{png|jpg|gif|webp}`. Nothing else
 * is shown as an image — no outside address (a tracking pixel, a mixed-content request), no
 * `data:` or `javascript:` URL, no other upload folder (decision 0095's URL rules).
 */
export const DOC_IMAGE_SRC = /^\/api\/files\/attachments\/[A-Za-z0-9_-]{1,64}\.(?:png|jpg|gif|webp)$/;

export const isDocImageSrc = (src: unknown): src is string => typeof src === 'string' && DOC_IMAGE_SRC.test(src);

/** Every upload path named anywhere in some bytes (a Yjs update stores attribute strings as UTF-8). */
const FILE_REFERENCE = /\/api\/files\/attachments\/[A-Za-z0-9_-]{1,64}\.(?:png|jpg|gif|webp)/g;


/** The image files an update (or a merged state) names, in order of first appearance, no repeats. */
export function docFileReferences(text: string): string[] {
  return [...new Set(text.match(FILE_REFERENCE) ?? [])].slice(0, DOC_FILES_MAX);
}

/** The node names of the body (the Yjs XML element names TipTap writes). */
export const DOC_NODE = {
  image: 'docImage',
  embed: 'itemEmbed',
  table: 'table',
  row: 'tableRow',
  cell: 'tableCell',
  header: 'tableHeader',
} as const;

/** Item ids as the sync engine makes them (an embed names one; anything else is dropped). */
export const EMBED_ID = /^[A-Za-z0-9_-]{1,64}$/;
