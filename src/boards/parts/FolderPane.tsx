import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Activity, Plus, Settings, Shield, Trash2, Zap } from 'lucide-react';
import { itemOfValueId } from '../../../schema/records';
import { pathFor } from '../../../schema/routes';
import { canSeeView, isViewKind, resolveViewSettings, viewSettingsOf, type ViewKind, type ViewSettings } from '../../../schema/views';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import { useAttributeValueParts, useAttributeValues, useItems, useViews, valueChangesBetween, type Folder, type FolderView, type Item, type ValueReader } from '../store/live';
import { createItemProblem } from '../model/groups';
import { requestNewItem } from '../keys/new-item-event';
import { useBoardShortcuts } from '../keys/use-board-shortcuts';
import { sortByPosition } from '../model/positions';
import { searchItems } from '../model/query';
import { itemOrderFor, type OrderSpec } from '../model/item-order';
import { subtreeIds } from '../model/tree';
import { BulkBar } from './BulkBar';
import { TrashDialog } from './TrashDialog';
import { ViewControls } from './ViewControls';
import { ViewTabs } from './ViewTabs';
import { ViewSwitch } from '../views/ViewSwitch';
import { prefetchViews } from '../views/lazy-views';
import { useProViews } from '../pro-views';
import { viewValueAttributes } from '../views/view-values';
import { useToolbarFit } from './toolbar-fit';
import { viewActor } from './use-change-view';
import { overlay, personalKeyOf, usePersonalView } from '../views/personal-view';
import './toolbar.css';

/** A view as shown: a saved folder_view, or the built-in Table when the folder has none yet. */
export interface ShownView {
  record: FolderView | null;
  kind: ViewKind;
  /**
   * The shared keys (sort, filters, group_by…) as this user sees them: the view's shared settings
   * with the user's unsaved personal ones over them (views/personal-view.ts); a kind's own keys:
   * resolveViewSettings(kind, record.settings, attributes).
   */
  settings: ViewSettings;
  /** What everyone sees (the saved view). */
  shared: ViewSettings;
  /** Where this user's personal settings of the view are kept. */
  personalKey: string;
}

/**
 * One folder: its views (tabs), the toolbar (search, new item, sort/filter/group, columns, trash),
 * the selected view and the bulk bar for selected items.
 */
export function FolderPane({ folder, viewId }: { folder: Folder; viewId: string | null }) {
  const { t, i18n } = useLingui();
  const board = useBoard();
  // Pro-only views on a plan without them show the upgrade message (decision 0260).
  const proViews = useProViews(board.teamId);
  const navigate = useNavigate();
  const items = useItems(board.boardId);
  const views = useViews(board.boardId);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [trashOpen, setTrashOpen] = useState(false);

  const actor = viewActor(board, folder.id);
  const folderViews = useMemo(
    () => sortByPosition((views ?? []).filter((v) => v.folder_id === folder.id && canSeeView(v, actor))),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [views, folder.id, actor.userId, actor.isWorkspaceOwner],
  );
  const record = folderViews.find((v) => v.id === viewId) ?? folderViews[0] ?? null;
  // The other tabs' chunks (chart, calendar…) are fetched while the browser is idle.
  const viewKinds = folderViews.map((v) => v.kind).join('|');
  useEffect(() => prefetchViews(viewKinds.split('|')), [viewKinds]);
  // Memoised on the stored settings: a new object each render would redo the filter and sort of
  // every item on each render (a value edit renders this pane).
  const kind: ViewKind = isViewKind(record?.kind) ? record.kind : 'table';
  // Column and List views group by default (the board's first status…) without saying so in their
  // settings: the grouping is resolved here, once, so the values it needs are read with the rest.
  // Filters, sorts and groups the user changed are theirs until saved for everyone (decision 0353).
  const personalKey = personalKeyOf(board.backend.userId ?? null, board.boardId, record?.id ?? null, folder.id);
  const personal = usePersonalView(personalKey);
  const sharedSettings = useMemo(() => viewSettingsOf(record?.settings), [record?.settings]);
  const viewSettings = useMemo(() => {
    const mine = overlay(sharedSettings, personal);
    if (kind !== 'column' && kind !== 'list') return mine;
    return { ...mine, group_by: resolveViewSettings(kind, { ...(record?.settings ?? {}), ...(personal ?? {}) }, board.attributes).group_by };
  }, [sharedSettings, personal, record?.settings, kind, board.attributes]);
  const shown: ShownView = { record, kind, settings: viewSettings, shared: sharedSettings, personalKey };
  const settings = shown.settings;

  // Which folders' items this view shows: the folder, plus its subfolders in an overview.
  const node = board.tree.byId.get(folder.id);
  const folderIds = useMemo(() => new Set(settings.include_subfolders && node ? subtreeIds(node).filter((id) => !board.tree.byId.get(id)?.hidden || board.can('EDIT_FOLDER_SETTINGS', id)) : [folder.id]), [settings.include_subfolders, node, folder.id, board]);
  const isOverview = settings.include_subfolders && folder.parent_id === null;

  const attributeMap = useMemo(() => new Map(board.attributes.map((a) => [a.id, a])), [board.attributes]);
  const queryAttributes = [...settings.sort.map((s) => s.attribute_id), ...settings.filters.map((f) => f.attribute_id), ...(settings.group_by ? [settings.group_by] : [])].filter((id) => attributeMap.has(id));
  const searchAttrs = query ? board.attributes.filter((a) => !a.hidden && ['text', 'long-text', 'status', 'label', 'email', 'link', 'number'].includes(a.kind)) : [];
  const queryIds = [...queryAttributes, ...searchAttrs.map((a) => a.id)];
  const queryValues = useAttributeValues(queryIds);
  // What the view places items by (a calendar's date, a chart's attributes…) is a list of its
  // own, so an edit of a date does not redo the filter and sort of every item.
  const viewIds = useMemo(() => viewValueAttributes(kind, record?.settings, board.attributes), [kind, record?.settings, board.attributes]).filter((id) => !queryIds.includes(id));
  // Read attribute by attribute: `partial` reads what has arrived, so a Chart draws its first panel
  // before the last column is read; the other views wait for all (`valuesReady`).
  const viewParts = useAttributeValueParts(viewIds);
  const viewValues = viewParts.partial;
  const queryGet = useMemo(() => valueGetterOf(queryValues), [queryValues]);
  const viewIdKey = viewIds.join('|');
  const get = useMemo(() => {
    if (!viewIdKey) return queryGet;
    const own = new Set(viewIdKey.split('|'));
    return (itemId: string, attributeId: string) => (own.has(attributeId) ? (viewValues?.(`${itemId}.${attributeId}`) ?? null) : queryGet(itemId, attributeId));
  }, [queryGet, viewValues, viewIdKey]);
  // Until both lists are read, views that place items by values show nothing rather than every item as "empty" for a frame.
  const valuesReady = queryValues !== undefined && viewParts.all !== undefined;
  const queryKey = queryIds.join('|');
  const loadedValues = useMemo(
    () => (queryValues === undefined ? viewParts.loaded : new Set([...viewParts.loaded, ...(queryKey ? queryKey.split('|') : [])])),
    [queryValues === undefined, viewParts.loaded, queryKey], // eslint-disable-line react-hooks/exhaustive-deps
  );

  // The folder's items filtered and sorted, kept in order incrementally and between mounts
  // (model/item-order.ts, decision 0315): an edit moves the items it changed, a warm open over
  // the same list reuses the order, and only a change of the rules sorts every item again.
  const order = useMemo(() => itemOrderFor<Item>(`${board.boardId}\u0000${folder.id}\u0000${record?.id ?? ''}`), [board.boardId, folder.id, record?.id]);
  const ruleAttributes = JSON.stringify(queryAttributes.map((id) => attributeMap.get(id)));
  const spec = useMemo(
    (): OrderSpec<Item> => ({
      id: JSON.stringify([[...folderIds], settings.filters, settings.match, settings.sort, ruleAttributes]),
      inScope: (i) => !i.deleted_at && folderIds.has(i.folder_id),
      filters: settings.filters,
      match: settings.match,
      sort: settings.sort,
      attributes: attributeMap,
    }),
    [folderIds, settings.filters, settings.match, settings.sort, attributeMap, ruleAttributes],
  );
  const orderedItems = useMemo(() => (items ? order.update(items, spec, queryGet, changedItemsBetween) : []), [order, items, spec, queryGet]);
  // The search filters the ordered list (no sort): typing costs one pass over the folder's items.
  const shownItems = useMemo(
    () => (query.trim() ? searchItems(orderedItems, query, searchAttrs, queryGet) : orderedItems),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [orderedItems, query, queryGet],
  );

  const canCreate = board.can('CREATE_ITEM', folder.id);
  const addItem = async (values: Record<string, unknown> = {}, groupKey?: string, name?: string) => {
    const problem = createItemProblem({ isOverview, attribute: settings.group_by ? attributeMap.get(settings.group_by) : null, groupKey });
    if (problem) {
      toast.show(problem, { kind: 'error' });
      return null;
    }
    const siblings = (items ?? []).filter((i) => i.folder_id === folder.id);
    return board.actions.createItem(folder.id, name?.trim() || t`New item`, siblings, values);
  };

  const selectedItems = useMemo(() => (selected.size ? shownItems.filter((i) => selected.has(i.id)) : []), [shownItems, selected]);
  const searchRef = useRef<HTMLInputElement>(null);
  const startNewItem = () => requestNewItem() || void addItem().then((id) => id && board.openItem(id, folder.id));
  useBoardShortcuts({ create: canCreate && !isOverview ? startNewItem : undefined, search: () => searchRef.current?.focus() });
  const viewProps = { folder, view: shown, items: shownItems, get, valuesReady, loadedValues, selected, setSelected, addItem, canCreate: canCreate && !isOverview };
  // One row at any width (decision 0276): folds labels when they would not fit; measured again
  // when what the labels say changes.
  const toolbarRef = useRef<HTMLDivElement>(null);
  const headerRef = useRef<HTMLDivElement>(null);
  const headerFit = useToolbarFit(headerRef, i18n.locale);
  const fit = useToolbarFit(toolbarRef, [i18n.locale, settings.sort.length, settings.filters.length, Boolean(settings.group_by), viewProps.canCreate, String(shownItems.length).length].join('|'));

  return (
    <div className="folder-pane" data-testid="folder-pane" data-folder-id={folder.id}>
      <header className="folder-header">
        <h1 className="folder-title">{folder.name}</h1>
        <div ref={headerRef} className="folder-header-actions" data-fit={headerFit}>
          {folder.parent_id === null && board.can('UPDATE_BOARD', folder.id, folder.created_by ?? null) && (
            <Link to={pathFor('edit-board', { teamId: board.teamId, boardId: board.boardId })} className="folder-header-link" title={headerFit ? t`Board settings` : undefined}>
              <Settings size={15} aria-hidden="true" />
              <span className="toolbar-label">
                <Trans>Board settings</Trans>
              </span>
            </Link>
          )}
          {folder.parent_id === null && board.can('MANAGE_PERMISSIONS', folder.id) && (
            <Link to={pathFor('board.permissions', { teamId: board.teamId, boardId: board.boardId })} className="folder-header-link" title={headerFit ? t`Permissions` : undefined}>
              <Shield size={15} aria-hidden="true" />
              <span className="toolbar-label">
                <Trans>Permissions</Trans>
              </span>
            </Link>
          )}
          {folder.parent_id === null && board.can('VIEW_ACTIVITY_LOG', folder.id) && (
            <Link to={pathFor('board.activity', { teamId: board.teamId, boardId: board.boardId })} className="folder-header-link" title={headerFit ? t`Activity` : undefined}>
              <Activity size={15} aria-hidden="true" />
              <span className="toolbar-label">
                <Trans>Activity</Trans>
              </span>
            </Link>
          )}
          {folder.parent_id === null && !board.readOnly && board.info?.viewer.role !== 'guest' && (
            <Link to={pathFor('folder', { rootId: board.boardId, folderId: folder.id })} search={{ t: 'automations' } as never} className="folder-header-link" title={headerFit ? t`Automations` : undefined} data-testid="open-automations">
              <Zap size={15} aria-hidden="true" />
              <span className="toolbar-label">
                <Trans>Automations</Trans>
              </span>
            </Link>
          )}
          {!board.readOnly && (
            <Button variant="ghost" size="sm" className="folder-header-link" title={headerFit ? t`Trash` : undefined} onClick={() => setTrashOpen(true)}>
              <Trash2 size={15} aria-hidden="true" />
              <span className="toolbar-label">
                <Trans>Trash</Trans>
              </span>
            </Button>
          )}
        </div>
      </header>
      <ViewTabs
        folder={folder}
        views={folderViews}
        active={record}
        onSelect={(id) => void navigate({ href: (folder.parent_id === null ? pathFor('board', { rootId: board.boardId }) : pathFor('folder', { rootId: board.boardId, folderId: folder.id })) + `?view=${encodeURIComponent(id)}` })}
      />
      <div ref={toolbarRef} className="folder-toolbar" role="toolbar" aria-label={t`View tools`} data-fit={fit}>
        <input ref={searchRef} type="search" className="folder-search" placeholder={t`Search`} aria-label={t`Search items`} aria-keyshortcuts="/" value={query} onChange={(e) => setQuery(e.target.value)} />
        {viewProps.canCreate && (
          <Button size="sm" variant="primary" data-testid="new-item" aria-keyshortcuts="c" onClick={startNewItem}>
            <Plus size={15} aria-hidden="true" />
            <span className="toolbar-label">
              <Trans>New item</Trans>
            </span>
          </Button>
        )}
        <ViewControls folder={folder} view={shown} />
        <span className="folder-count" aria-live="polite">
          {shownItems.length === 1 ? t`1 item` : t`${shownItems.length} items`}
        </span>
      </div>
      {selected.size > 0 && <BulkBar items={selectedItems} folder={folder} onDone={() => setSelected(new Set())} />}
      {items === undefined ? null : <ViewSwitch {...viewProps} planAllowsPro={proViews.allowed} />}
      {trashOpen && <TrashDialog onClose={() => setTrashOpen(false)} />}
    </div>
  );
}

/**
 * A reader of (item, attribute) over a reader by value id, the same function for the same reader
 * (across mounts too): the kept order of a view (model/item-order.ts) tells a value change from
 * a remount by the reader's identity.
 */
type Getter = (itemId: string, attributeId: string) => unknown;
const getters = new WeakMap<ValueReader, Getter>();
const readerOfGetter = new WeakMap<Getter, ValueReader>();
const noValues = (): unknown => null;
function valueGetterOf(reader: ValueReader | undefined): Getter {
  if (!reader) return noValues;
  let get = getters.get(reader);
  if (!get) {
    get = (itemId: string, attributeId: string) => reader(`${itemId}.${attributeId}`) ?? null;
    getters.set(reader, get);
    readerOfGetter.set(get, reader);
  }
  return get;
}

/** The items whose values may read differently through `after` than through `before` (null: not known). */
function changedItemsBetween(before: Getter, after: Getter): string[] | null {
  const a = readerOfGetter.get(before);
  const b = readerOfGetter.get(after);
  const ids = a && b ? valueChangesBetween(a, b) : null;
  return ids && ids.map(itemOfValueId);
}
