import { createRequire } from 'node:module';
import { COMMENT_ALLOWED_ATTR, COMMENT_ALLOWED_TAGS, keepValidMentions } from '../../schema/comment-html';

type Purifier = typeof import('isomorphic-dompurify').default;

/**
 * DOMPurify on the server brings a whole jsdom, the heaviest module the server loads (about half
 * of its import time): it is required on the first comment saved, not when the server starts, so
 * a start (and each test file that starts a server) does not pay for it (decision 0367). The
 * server's start warms it in the background once it listens (preloadCommentSanitizer).
 */
const requireCjs = createRequire(import.meta.url);
let purifier: Purifier | undefined;
function domPurify(): Purifier {
  purifier ??= requireCjs('isomorphic-dompurify') as Purifier;
  return purifier;
}

/** Loads the sanitizer now, so the first comment after a start does not wait for it. */
export function preloadCommentSanitizer(): void {
  domPurify();
}

/**
 * Comment html as the server stores it: formatting, links, lists, code, images and mentions
 * (`<span data-mention="{userId}">`, schema/comment-html.ts) kept; scripts, event handlers, styles
 * and javascript: urls removed, and a data-mention that is not a user id dropped. Every client
 * renders the stored html (sanitising it again, for what a device wrote offline), so this is the
 * one place that makes it safe for everyone else.
 */
export function sanitizeCommentHtml(html: string): string {
  return keepValidMentions(domPurify().sanitize(html, { ALLOWED_TAGS: COMMENT_ALLOWED_TAGS, ALLOWED_ATTR: COMMENT_ALLOWED_ATTR, ALLOW_DATA_ATTR: false }));
}
