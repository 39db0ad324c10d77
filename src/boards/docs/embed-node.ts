import { Node } from '@tiptap/core';
import { DOC_NODE, EMBED_ID } from '../../../schema/doc-nodes';
import type { Item } from '../store/live';

/**
 * An embed of another item in a document (decision 0217): an inline card with the item's name
 * and status that opens it. The body stores only the item's id — never its name — so a reader
 * who may not read the item learns nothing from the document: the card is drawn from this
 * device's replica, which holds only records its user may read, and an item missing from it
 * (unreadable, deleted, or of a board this device never opened) shows "Item not available".
 */
export const EMBED_ATTRIBUTE = 'data-item-embed';

export const ItemEmbedNode = Node.create({
  name: DOC_NODE.embed,
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  draggable: false,
  addAttributes: () => ({
    id: {
      default: null,
      parseHTML: (element: HTMLElement) => {
        const id = element.getAttribute(EMBED_ATTRIBUTE);
        return id && EMBED_ID.test(id) ? id : null;
      },
      renderHTML: (attributes: { id?: string | null }) => (attributes.id ? { [EMBED_ATTRIBUTE]: attributes.id } : {}),
    },
  }),
  parseHTML: () => [{ tag: `span[${EMBED_ATTRIBUTE}]` }],
  // Copied out as text: a mark, never the name (the name is not the document's to carry).
  renderText: () => '⧉',
  renderHTML: ({ HTMLAttributes }) => ['span', { ...HTMLAttributes, class: 'doc-embed' }],
});

/** One line of a suggestion menu (a member to mention, an item to embed). */
export interface Choice {
  id: string;
  label: string;
}

const EMBED_CHOICES = 8;

/** Items of the board whose name holds the query, best first (names starting with it), this document left out. */
export function embedCandidates(items: readonly Pick<Item, 'id' | 'name' | 'deleted_at'>[], query: string, exceptId: string): Choice[] {
  const q = query.trim().toLocaleLowerCase();
  const matches = items.filter((i) => i.id !== exceptId && !i.deleted_at && (q === '' || (i.name ?? '').toLocaleLowerCase().includes(q)));
  const starts = (i: { name: string | null }) => ((i.name ?? '').toLocaleLowerCase().startsWith(q) ? 0 : 1);
  return matches
    .sort((a, b) => starts(a) - starts(b) || (a.name ?? '').localeCompare(b.name ?? ''))
    .slice(0, EMBED_CHOICES)
    .map((i) => ({ id: i.id, label: i.name || i.id }));
}

/**
 * The rich-text editor of one document: TipTap bound to the body's Y.Doc by the collaboration
 * extension (so TipTap's own history is off: Yjs keeps it), with headings, lists, checklists,
 * code, links, `@` mentions of the workspace's members, tables (table.ts), images uploaded as the
 * item's attachments (image.ts) and `[[` embeds of other items (embed.tsx).
 */
