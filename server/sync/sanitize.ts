import DOMPurify from 'isomorphic-dompurify';
import { COMMENT_ALLOWED_ATTR, COMMENT_ALLOWED_TAGS, keepValidMentions } from '../../schema/comment-html';

/**
 * Comment html as the server stores it: formatting, links, lists, code, images and mentions
 * (`<span data-mention="{userId}">`, schema/comment-html.ts) kept; scripts, event handlers, styles
 * and javascript: urls removed, and a data-mention that is not a user id dropped. Every client
 * renders the stored html (sanitising it again, for what a device wrote offline), so this is the
 * one place that makes it safe for everyone else.
 */
export function sanitizeCommentHtml(html: string): string {
  return keepValidMentions(DOMPurify.sanitize(html, { ALLOWED_TAGS: COMMENT_ALLOWED_TAGS, ALLOWED_ATTR: COMMENT_ALLOWED_ATTR, ALLOW_DATA_ATTR: false }));
}
