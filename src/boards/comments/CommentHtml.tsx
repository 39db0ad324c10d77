import { memo, useMemo } from 'react';
import DOMPurify from 'isomorphic-dompurify';
import { COMMENT_ALLOWED_ATTR, COMMENT_ALLOWED_TAGS, MENTION_ATTRIBUTE } from '../../../schema/comment-html';

/**
 * A comment's stored html, shown. The server sanitised it already; it is sanitised again here with
 * the same allow-list because a comment written on this device offline is in the replica before
 * the server has seen it. Links open in a new tab without handing this page to the target.
 */
function safeHtml(html: string): string {
  const fragment = DOMPurify.sanitize(html, { ALLOWED_TAGS: COMMENT_ALLOWED_TAGS, ALLOWED_ATTR: COMMENT_ALLOWED_ATTR, ALLOW_DATA_ATTR: false, RETURN_DOM_FRAGMENT: true });
  for (const link of fragment.querySelectorAll('a')) {
    link.target = '_blank';
    link.rel = 'noopener noreferrer nofollow';
  }
  for (const mention of fragment.querySelectorAll(`[${MENTION_ATTRIBUTE}]`)) {
    if (!/^[1-9]\d*$/.test(mention.getAttribute(MENTION_ATTRIBUTE) ?? '')) mention.removeAttribute(MENTION_ATTRIBUTE);
  }
  const box = document.createElement('div');
  box.append(fragment);
  return box.innerHTML;
}

export const CommentHtml = memo(function CommentHtml({ html }: { html: string }) {
  const clean = useMemo(() => safeHtml(html), [html]);
  return <div className="comment-body" dangerouslySetInnerHTML={{ __html: clean }} />;
});
