import { Node } from '@tiptap/core';
import { NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import { Trans } from '@lingui/react/macro';
import { DOC_NODE, EMBED_ID } from '../../../schema/doc-nodes';
import { useBoard } from '../BoardContext';
import { useItemValues, useRecord, type Item } from '../store/live';
import { ValueDisplay } from '../parts/values';

/**
 * An embed of another item in a document (decision 0217): an inline card with the item's name
 * and status that opens it. The body stores only the item's id — never its name — so a reader
 * who may not read the item learns nothing from the document: the card is drawn from this
 * device's replica, which holds only records its user may read, and an item missing from it
 * (unreadable, deleted, or of a board this device never opened) shows "Item not available".
 */
export const EMBED_ATTRIBUTE = 'data-item-embed';

export const ItemEmbed = Node.create({
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
  // Copied out as text: the id only (the name is not the document's to carry).
  renderText: () => '[item]',
  renderHTML: ({ HTMLAttributes }) => ['span', { ...HTMLAttributes, class: 'doc-embed' }],
  addNodeView: () => ReactNodeViewRenderer(EmbedCard, { as: 'span', className: 'doc-embed-host' }),
});

function EmbedCard({ node }: ReactNodeViewProps) {
  const id = typeof node.attrs.id === 'string' && EMBED_ID.test(node.attrs.id) ? node.attrs.id : null;
  const item = useRecord<Item>('item', id);
  const live = item && !item.deleted_at ? item : null;
  return (
    <NodeViewWrapper as="span" className="doc-embed" data-testid="doc-embed" contentEditable={false}>
      {live ? (
        <EmbedOpen item={live} />
      ) : (
        <span className="doc-embed-missing">{item === undefined ? '…' : <Trans>Item not available</Trans>}</span>
      )}
    </NodeViewWrapper>
  );
}

function EmbedOpen({ item }: { item: Item }) {
  const board = useBoard();
  // The status is the board's first status attribute (the one List rows show), for items of this board.
  const status = item.board_id === board.boardId ? board.attributes.find((a) => a.kind === 'status' && !a.deleted_at) : undefined;
  return (
    <button type="button" className="doc-embed-open" onClick={() => board.openItem(item.id, item.folder_id)}>
      <span className="doc-embed-name">{item.name}</span>
      {status && <EmbedStatus item={item} attributeId={status.id} />}
    </button>
  );
}

function EmbedStatus({ item, attributeId }: { item: Item; attributeId: string }) {
  const board = useBoard();
  const values = useItemValues(item.id);
  const attribute = board.attributes.find((a) => a.id === attributeId);
  const value = values.get(attributeId);
  if (!attribute || value === undefined || value === null) return null;
  return (
    <span className="doc-embed-status">
      <ValueDisplay attribute={attribute} value={value} item={item} />
    </span>
  );
}
