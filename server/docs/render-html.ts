import * as Y from 'yjs';
import { DOC_FRAGMENT } from '../../schema/doc-records';
import { DOC_NODE, EMBED_ID, isDocImageSrc } from '../../schema/doc-nodes';

/**
 * A document body (Yjs state) as HTML for published pages (no JavaScript needed to read it).
 * Only the nodes and marks the Docs editor makes are written, every text escaped, links kept only
 * for http(s) and mailto addresses: the output never carries markup a writer typed in.
 */

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const safeHref = (href: unknown): string | null => (typeof href === 'string' && /^(https?:|mailto:)/i.test(href.trim()) ? href.trim() : null);

function renderText(text: Y.XmlText): string {
  let out = '';
  for (const part of text.toDelta() as { insert: unknown; attributes?: Record<string, unknown> }[]) {
    if (typeof part.insert !== 'string') continue;
    let html = escape(part.insert);
    const marks = part.attributes ?? {};
    if (marks.code) html = `<code>${html}</code>`;
    if (marks.bold) html = `<strong>${html}</strong>`;
    if (marks.italic) html = `<em>${html}</em>`;
    if (marks.strike) html = `<s>${html}</s>`;
    if (marks.underline) html = `<u>${html}</u>`;
    const link = marks.link as { href?: unknown } | undefined;
    const href = link ? safeHref(link.href) : null;
    if (href) html = `<a href="${escape(href)}" rel="noopener nofollow">${html}</a>`;
    out += html;
  }
  return out;
}

const BLOCKS: Record<string, string> = {
  paragraph: 'p',
  blockquote: 'blockquote',
  bulletList: 'ul',
  orderedList: 'ol',
  listItem: 'li',
};

/**
 * What a published page may say about an embedded item (decision 0217): its name and address when
 * the page's reader may read it (a document published with this one), null otherwise — then the
 * embed shows a neutral "item" mark and nothing of the item.
 */
export type EmbedResolver = (itemId: string) => { name: string; href: string } | null;

export interface DocHtmlOptions {
  embed?: EmbedResolver;
  /** The text of an embed the reader may not see (the page's language). */
  hiddenEmbedText?: string;
}

const cellSpan = (node: Y.XmlElement, name: 'colspan' | 'rowspan') => {
  const value = Math.floor(Number(node.getAttribute(name as never)));
  return value > 1 && value <= 50 ? ` ${name}="${value}"` : '';
};

function renderNode(node: Y.XmlElement | Y.XmlText, options: DocHtmlOptions): string {
  if (node instanceof Y.XmlText) return renderText(node);
  const inner = () => node.toArray().map((child) => renderNode(child as Y.XmlElement | Y.XmlText, options)).join('');
  const name = node.nodeName;
  if (name in BLOCKS) return `<${BLOCKS[name]}>${inner()}</${BLOCKS[name]}>`;
  switch (name) {
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(node.getAttribute('level')) || 1));
      // The page's own title is the h1: a document's headings start one lower.
      const shown = Math.min(6, level + 1);
      return `<h${shown}>${inner()}</h${shown}>`;
    }
    case 'codeBlock':
      return `<pre><code>${inner()}</code></pre>`;
    case 'horizontalRule':
      return '<hr>';
    case 'hardBreak':
      return '<br>';
    case 'taskList':
      return `<ul class="task-list">${inner()}</ul>`;
    case 'taskItem': {
      const checked = String(node.getAttribute('checked' as never)) === 'true';
      return `<li class="task-item"><input type="checkbox" disabled${checked ? ' checked' : ''}> <div>${inner()}</div></li>`;
    }
    case DOC_NODE.table:
      return `<table class="doc-table"><tbody>${inner()}</tbody></table>`;
    case DOC_NODE.row:
      return `<tr>${inner()}</tr>`;
    case DOC_NODE.cell:
    case DOC_NODE.header: {
      const tag = name === DOC_NODE.header ? 'th' : 'td';
      return `<${tag}${cellSpan(node, 'colspan')}${cellSpan(node, 'rowspan')}>${inner()}</${tag}>`;
    }
    case DOC_NODE.image: {
      // Only an attachment of the item (schema/doc-nodes.ts): anything else is left out.
      const src = node.getAttribute('src' as never);
      if (!isDocImageSrc(src)) return '';
      return `<img src="${escape(src)}" alt="${escape(String(node.getAttribute('alt' as never) ?? '').slice(0, 300))}" loading="lazy">`;
    }
    case DOC_NODE.embed: {
      const id = node.getAttribute('id' as never);
      const shown = typeof id === 'string' && EMBED_ID.test(id) && options.embed ? options.embed(id) : null;
      if (!shown) return `<span class="embed">${escape(options.hiddenEmbedText ?? '⧉')}</span>`;
      return `<a class="embed" href="${escape(shown.href)}">${escape(shown.name)}</a>`;
    }
    case 'mention':
      return `<span class="mention">@${escape(String(node.getAttribute('label' as never) ?? node.getAttribute('id' as never) ?? ''))}</span>`;
    default:
      // Anything else the editor may add later: its text, without its markup.
      return inner();
  }
}

/** The body's HTML; empty for an empty document. */
export function docHtml(state: Uint8Array, options: DocHtmlOptions = {}): string {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return doc
    .getXmlFragment(DOC_FRAGMENT)
    .toArray()
    .map((node) => renderNode(node as Y.XmlElement | Y.XmlText, options))
    .join('');
}
