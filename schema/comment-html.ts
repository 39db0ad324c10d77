/**
 * The shape of a comment's html (comment.text.html), shared by the server that sanitises it
 * (server/sync/sanitize.ts), the client that renders it (src/boards/comments/CommentHtml.tsx) and
 * whoever reads mentions out of it (notifications). Pure: no DOM, no DOMPurify here.
 *
 * A mention is `<span data-mention="{userId}">@Name</span>`: the id is what counts, the text is
 * what the author saw when writing (a later rename does not rewrite old comments).
 */

export const COMMENT_ALLOWED_TAGS = ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'del', 'a', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'span', 'h1', 'h2', 'h3', 'img', 'hr'];
export const COMMENT_ALLOWED_ATTR = ['href', 'target', 'rel', 'src', 'alt', 'title', 'class', 'data-type', 'data-id', 'data-label', 'data-mention'];

/** The attribute a mention's user id rides in. */
export const MENTION_ATTRIBUTE = 'data-mention';

// Sanitised html always quotes attribute values with ", and escapes a " inside them.
const MENTION_PATTERN = /\sdata-mention="([^"]*)"/g;

/**
 * Drops data-mention attributes whose value is not a user id, from html a sanitiser already
 * serialised (so attributes are double-quoted). The span and its text stay: it reads as plain text.
 */
export function keepValidMentions(html: string): string {
  return html.replace(MENTION_PATTERN, (whole, id: string) => (/^[1-9]\d{0,15}$/.test(id) ? whole : ''));
}

/** The user ids mentioned in sanitised comment html, each once, in the order they first appear. */
export function mentionedUserIds(html: string): number[] {
  const ids: number[] = [];
  for (const match of html.matchAll(MENTION_PATTERN)) {
    const id = Number(match[1]);
    if (Number.isSafeInteger(id) && id > 0 && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** A comment's html as plain words (previews, activity lines, notification bodies). */
export function commentPlainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<\/(p|li|h[1-3]|blockquote|pre)>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
