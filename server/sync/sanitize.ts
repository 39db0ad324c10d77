import DOMPurify from 'isomorphic-dompurify';

/**
 * Comment html as the server stores it: formatting, links, lists, code, images and mentions kept;
 * scripts, event handlers, styles and javascript: urls removed. Every client renders the stored
 * html, so this is the one place that makes it safe.
 */
const ALLOWED_TAGS = ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'del', 'a', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'span', 'h1', 'h2', 'h3', 'img', 'hr'];
const ALLOWED_ATTR = ['href', 'target', 'rel', 'src', 'alt', 'title', 'class', 'data-type', 'data-id', 'data-label'];

export function sanitizeCommentHtml(html: string): string {
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false });
}
