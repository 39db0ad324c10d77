import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { useBoard } from '../BoardContext';
import { useItems, type Item } from '../store/live';
import type { ViewProps } from '../parts/view-props';
import type { TreeNode } from '../model/tree';
import type { Folder } from '../store/live';
import DocEditor from './DocEditor';
import { PublishPanel } from './PublishPanel';
import { useDocBody } from './use-doc-body';
import { useDocPresence, useRemoteEditors } from './use-doc-presence';
import type { DocPresence } from './presence';
import './docs.css';

/**
 * The Docs view (issue #13, decision 0135): every item is a document. On the left the view's
 * folder as a tree (subfolders, then their documents), on the right the chosen document's body
 * in a collaborative rich-text editor. This module, TipTap and Yjs are one lazy chunk.
 */
export default function DocsView({ folder, view, items, addItem, canCreate }: ViewProps) {
  const { t } = useLingui();
  const board = useBoard();
  const [chosen, setChosen] = useState<string | null>(null);
  const byFolder = useMemo(() => {
    const map = new Map<string, Item[]>();
    for (const item of items) map.set(item.folder_id, [...(map.get(item.folder_id) ?? []), item]);
    return map;
  }, [items]);
  const current = items.find((i) => i.id === chosen) ?? items[0] ?? null;
  const start = board.tree.byId.get(folder.id) ?? null;

  const create = async () => {
    const id = await addItem(undefined, undefined, t`Untitled document`);
    if (id) setChosen(id);
  };

  const renderNode = (node: TreeNode<Folder>, depth: number): React.ReactNode => {
    const documents = byFolder.get(node.folder.id) ?? [];
    const children = node.children.map((child) => renderNode(child, depth + 1)).filter(Boolean);
    if (depth > 0 && documents.length === 0 && children.length === 0) return null;
    return (
      <li key={node.folder.id} className="docs-tree-folder">
        {depth > 0 && <span className="docs-tree-folder-name">{node.folder.name}</span>}
        <ul role="group">
          {documents.map((item) => (
            <li key={item.id}>
              <button type="button" className="docs-tree-item" aria-current={item.id === current?.id ? 'page' : undefined} onClick={() => setChosen(item.id)}>
                {item.name || t`Untitled document`}
              </button>
            </li>
          ))}
          {children}
        </ul>
      </li>
    );
  };

  return (
    <div className="docs-view">
      <nav className="docs-tree" aria-label={t`Documents`}>
        {canCreate && (
          <Button size="sm" onClick={() => void create()}>
            <Trans>New document</Trans>
          </Button>
        )}
        <ul>{start ? renderNode(start, 0) : null}</ul>
        <PublishPanel folder={folder} view={view} current={current} />
      </nav>
      <section className="docs-page">
        {current ? (
          <DocPage key={current.id} item={current} />
        ) : (
          <EmptyState headingLevel={3} title={<Trans>No documents yet</Trans>} text={<Trans>Each item of this folder is a document. Create one to start writing.</Trans>} />
        )}
      </section>
    </div>
  );
}

function DocPage({ item }: { item: Item }) {
  const board = useBoard();
  const readOnly = board.readOnly || !board.access.can('EDIT_ITEM', item.folder_id, item.created_by ?? null);
  const body = useDocBody(board.teamId, board.boardId, item.id, readOnly);
  const members = board.info?.members ?? [];
  const boardItems = useItems(board.boardId);
  const nameOf = (userId: string) => members.find((m) => String(m.id) === userId)?.name ?? userId;
  const presence = useDocPresence(body, board.teamId, board.boardId, item.id, board.backend.userId, nameOf);
  return (
    <article className="docs-article">
      <h2 className="docs-title">{item.name}</h2>
      {presence && <AlsoHere presence={presence} />}
      {body && presence !== undefined ? <DocEditor presence={presence} key={item.id} body={body} members={members} items={boardItems ?? []} itemId={item.id} teamId={board.teamId} readOnly={readOnly} title={item.name} /> : <Spinner />}
    </article>
  );
}

/** "Also here": the others who have this document open now (one name per member). */
function AlsoHere({ presence }: { presence: DocPresence }) {
  const { t } = useLingui();
  const editors = useRemoteEditors(presence);
  const people = [...new Map(editors.map((e) => [e.userId, e])).values()];
  if (people.length === 0) return null;
  return (
    <ul className="docs-also-here" aria-label={t`Also in this document`} data-testid="doc-also-here">
      {people.map((p) => (
        <li key={p.userId}>
          <span className="docs-also-here-dot" aria-hidden="true" ref={(el) => void (el && (el.style.backgroundColor = p.color))} />
          {p.name}
        </li>
      ))}
    </ul>
  );
}
