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

// Sanitised html is serialised: every attribute value is double-quoted and a " inside it is
// escaped, a < in text is escaped. So tags and their attributes can be read token by token, and
// text that merely looks like an attribute (typed by someone) is never taken for one.
const TAG = /<([a-zA-Z][\w-]*)((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)(\s*\/?)>/g;
const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:="([^"]*)")?/g;
const USER_ID = /^[1-9]\d{0,15}$/;

/** The value of data-mention in a tag's attribute list, or undefined. */
function mentionIn(attributes: string): string | undefined {
  for (const [, name, value] of attributes.matchAll(ATTRIBUTE)) if (name!.toLowerCase() === MENTION_ATTRIBUTE) return value ?? '';
  return undefined;
}

/**
 * Drops data-mention attributes whose value is not a user id, from html a sanitiser already
 * serialised. The span and its text stay: it reads as plain text.
 */
export function keepValidMentions(html: string): string {
  return html.replace(TAG, (whole, tag: string, attributes: string, end: string) => {
    const mention = mentionIn(attributes);
    if (mention === undefined || USER_ID.test(mention)) return whole;
    const kept = [...attributes.matchAll(ATTRIBUTE)].filter(([, name]) => name!.toLowerCase() !== MENTION_ATTRIBUTE).map(([token]) => token).join('');
    return `<${tag}${kept}${end}>`;
  });
}

/** The user ids mentioned in sanitised comment html, each once, in the order they first appear. */
export function mentionedUserIds(html: string): number[] {
  const ids: number[] = [];
  for (const [, , attributes] of html.matchAll(TAG)) {
    const mention = mentionIn(attributes!);
    if (mention === undefined || !USER_ID.test(mention)) continue;
    const id = Number(mention);
    if (Number.isSafeInteger(id) && !ids.includes(id)) ids.push(id);
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
