import { NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import { Trans } from '@lingui/react/macro';
import { EMBED_ID } from '../../../schema/doc-nodes';
import { ItemEmbedNode } from './embed-node';
import { useBoard } from '../BoardContext';
import { useItemValues, useRecord, type Item } from '../store/live';
import { ValueDisplay } from '../parts/values';

/**
 * An embed of another item (decision 0217): the node (embed-node.ts) drawn as a card from the
 * replica. Only the id is stored; a reader who may not read the item sees "Item not available".
 */
/** The embed node with its card (the node's schema is embed-node.ts, free of React for tests). */
export const ItemEmbed = ItemEmbedNode.extend({
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
