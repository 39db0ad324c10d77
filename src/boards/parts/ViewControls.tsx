import { lazy, Suspense, useRef, useState, type RefObject } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowUpDown, Columns3, Copy, Download, Ellipsis, FileText, Group, LayoutTemplate, ListFilter, Upload } from 'lucide-react';
import { useNavigate } from '@tanstack/react-router';
import { pathFor } from '../../../schema/routes';
import { canChangeView, type SortRule } from '../../../schema/views';
import { Button } from '../../ui/Button';
import { Popover } from '../../ui/Popover';
import { PopupMenu } from '../../ui/PopupMenu';
import type { MenuItem } from '../../ui/MenuList';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Folder } from '../store/live';
import { columnGroupProblem, arrangeGroupsProblem } from '../model/groups';
import { AttributesDialog } from './AttributesDialog';
import type { ShownView } from './FolderPane';
import { useChangeView, useSaveForEveryone, viewActor } from './use-change-view';
import { FilterDialog } from './FilterDialog';
import { resetPersonal, unsavedChanges, usePersonalView } from '../views/personal-view';
import { downloadViewCsv, startPdfExport } from '../../board-jobs/jobs-api';
import { announceJobStarted } from '../../board-jobs/jobs-flag';
import { showApiError } from '../../api/handle-error';

// The CSV import (mapping screen, Web Worker) is a chunk of its own (decision 0161).
const CsvImportDialog = lazy(() => import('../../board-jobs/CsvImportDialog'));
import { useImportMenuEntries } from '../../imports/ImportMenuEntries';

type Panel = 'sort' | 'filter' | 'group' | 'attributes' | 'import' | null;

/**
 * Sort, filter, group and columns of the shown view, and a "More" menu with the secondary actions
 * (imports, exports, save as template, duplicate; decision 0276), so the toolbar stays one row.
 */
export function ViewControls({ folder, view }: { folder: Folder; view: ShownView }) {
  const { t } = useLingui();
  const [panel, setPanel] = useState<Panel>(null);
  const board = useBoard();
  const navigate = useNavigate();
  const imports = useImportMenuEntries(folder);
  const [exporting, setExporting] = useState(false);
  const s = view.settings;
  // Sort, filter and group hang from their buttons as popovers (a bottom sheet on phones).
  const sortButton = useRef<HTMLButtonElement>(null);
  const filterButton = useRef<HTMLButtonElement>(null);
  const groupButton = useRef<HTMLButtonElement>(null);
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadViewCsv(board.teamId, board.boardId, view.record ? { viewId: view.record.id } : { folderId: folder.id });
    } catch (error) {
      toast.show(error instanceof Error ? error.message : String(error), { kind: 'error' });
    } finally {
      setExporting(false);
    }
  };
  // The PDF is drawn on the server as a board job (decision 0225): the tray shows its progress and the download.
  const exportPdf = async () => {
    try {
      await startPdfExport(board.teamId, board.boardId, view.record ? { view_id: view.record.id } : { folder_id: folder.id });
      announceJobStarted();
      toast.show(t`The PDF is being made; it appears in the jobs tray.`);
    } catch (error) {
      showApiError(error);
    }
  };
  const canImport = board.can('CREATE_ITEM', folder.id);
  const canExport = board.can('EXPORT', folder.id);
  const isBoard = folder.parent_id === null;
  const settingsPage = pathFor('edit-board', { teamId: board.teamId, boardId: board.boardId });
  const more: MenuItem[] = [
    ...(canImport ? [{ id: 'csv-import', label: t`Import CSV`, icon: <Upload size={15} />, onSelect: () => setPanel('import') }, ...imports.items] : []),
    ...(canExport
      ? [
          { id: 'csv-export', label: exporting ? t`Exporting…` : t`Export CSV`, icon: <Download size={15} />, disabled: exporting, onSelect: () => void exportCsv(), separatorBefore: canImport },
          { id: 'pdf-export', label: t`Export PDF`, icon: <FileText size={15} />, onSelect: () => void exportPdf() },
        ]
      : []),
    // Both are forms on the board's settings page (name, with or without items); the menu leads there.
    ...(isBoard && board.can('SAVE_AS_TEMPLATE', folder.id, folder.created_by ?? null)
      ? [{ id: 'save-as-template', label: t`Save as template…`, icon: <LayoutTemplate size={15} />, separatorBefore: canImport || canExport, onSelect: () => void navigate({ href: `${settingsPage}#save-as-template` }) }]
      : []),
    ...(isBoard && board.can('CREATE_BOARD', folder.id, null)
      ? [{ id: 'duplicate-board', label: t`Duplicate board…`, icon: <Copy size={15} />, onSelect: () => void navigate({ href: `${settingsPage}#duplicate-board` }) }]
      : []),
  ];
  return (
    <div className="view-controls">
      <PersonalMarker folder={folder} view={view} />
      <Button ref={sortButton} variant="ghost" size="sm" aria-haspopup="dialog" aria-expanded={panel === 'sort'} onClick={() => setPanel(panel === 'sort' ? null : 'sort')} data-testid="sort-button" aria-pressed={s.sort.length > 0}>
        <ArrowUpDown size={15} aria-hidden="true" />
        <span className="toolbar-label">{s.sort.length ? t`Sort (${s.sort.length})` : t`Sort`}</span>
      </Button>
      <Button ref={filterButton} variant="ghost" size="sm" aria-haspopup="dialog" aria-expanded={panel === 'filter'} onClick={() => setPanel(panel === 'filter' ? null : 'filter')} data-testid="filter-button" aria-pressed={s.filters.length > 0}>
        <ListFilter size={15} aria-hidden="true" />
        <span className="toolbar-label">{s.filters.length ? t`Filter (${s.filters.length})` : t`Filter`}</span>
      </Button>
      <Button ref={groupButton} variant="ghost" size="sm" aria-haspopup="dialog" aria-expanded={panel === 'group'} onClick={() => setPanel(panel === 'group' ? null : 'group')} data-testid="group-button" aria-pressed={Boolean(s.group_by)}>
        <Group size={15} aria-hidden="true" />
        <span className="toolbar-label">{s.group_by ? t`Grouped` : t`Group`}</span>
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setPanel('attributes')} data-testid="attributes-button">
        <Columns3 size={15} aria-hidden="true" />
        <span className="toolbar-label">
          <Trans>Attributes</Trans>
        </span>
      </Button>
      {more.length > 0 && (
        <PopupMenu
          items={more}
          renderTrigger={(props) => (
            <button type="button" className="ui-button ui-button--ghost ui-button--sm" data-testid="view-more-button" title={t`More actions`} {...props}>
              <Ellipsis size={15} aria-hidden="true" />
              <span className="toolbar-label">
                <Trans>More</Trans>
              </span>
            </button>
          )}
        />
      )}
      {imports.dialog}
      {panel === 'import' && (
        <Suspense fallback={null}>
          <CsvImportDialog folder={folder} onClose={() => setPanel(null)} />
        </Suspense>
      )}
      {panel === 'sort' && <SortDialog anchor={sortButton} folder={folder} view={view} onClose={() => setPanel(null)} />}
      {panel === 'filter' && <FilterDialog anchor={filterButton} folder={folder} view={view} onClose={() => setPanel(null)} />}
      {panel === 'group' && <GroupDialog anchor={groupButton} folder={folder} view={view} onClose={() => setPanel(null)} />}
      {panel === 'attributes' && <AttributesDialog folder={folder} view={view} onClose={() => setPanel(null)} />}
    </div>
  );
}

/**
 * Shown while this user's filters, sorts or groups differ from the shared view (decision 0353):
 * they see the view their way, everyone else as it was saved. "Save for everyone" writes them into
 * the shared view (for those who may change it); "Reset" drops them.
 */
function PersonalMarker({ folder, view }: { folder: Folder; view: ShownView }) {
  const { t } = useLingui();
  const board = useBoard();
  const personal = usePersonalView(view.personalKey);
  const save = useSaveForEveryone(folder, view);
  const [saving, setSaving] = useState(false);
  if (!unsavedChanges(view.shared, personal)) return null;
  const mayShare = !board.readOnly && (view.record ? canChangeView(view.record, viewActor(board, folder.id)) : board.can('CREATE_VIEW', folder.id));
  return (
    <span className="personal-marker" role="status" data-testid="personal-view-marker">
      <span className="personal-marker__text">{t`Only you see these changes`}</span>
      {mayShare && (
        <Button
          variant="secondary"
          size="sm"
          disabled={saving}
          onClick={async () => {
            setSaving(true);
            try {
              if (await save()) toast.show(t`Saved for everyone`);
            } finally {
              setSaving(false);
            }
          }}
        >
          {t`Save for everyone`}
        </Button>
      )}
      <Button variant="ghost" size="sm" onClick={() => resetPersonal(view.personalKey)}>
        {t`Reset`}
      </Button>
    </span>
  );
}

function useAttributeOptions() {
  const { t } = useLingui();
  const board = useBoard();
  return [
    ...board.attributes.filter((a) => !['button', 'time-tracking', 'primary'].includes(a.kind)).map((a) => ({ id: a.id, name: a.name })),
    { id: 'name', name: t`Name` },
    { id: 'created_at', name: t`Created` },
  ];
}

function SortDialog({ anchor, folder, view, onClose }: { anchor: RefObject<HTMLButtonElement | null>; folder: Folder; view: ShownView; onClose: () => void }) {
  const { t } = useLingui();
  const change = useChangeView(folder, view);
  const options = useAttributeOptions();
  const [rules, setRules] = useState<SortRule[]>(view.settings.sort);
  return (
    <Popover anchor={anchor} open onClose={onClose} title={t`Sort`} footer={<Button onClick={async () => (await change({ sort: rules })) && onClose()}>{t`Apply`}</Button>}>
      <ul className="rule-list">
        {rules.map((rule, i) => (
          <li key={i}>
            <select aria-label={t`Attribute`} value={rule.attribute_id} onChange={(e) => setRules(rules.map((r, j) => (j === i ? { ...r, attribute_id: e.target.value } : r)))}>
              {options.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
            <select aria-label={t`Direction`} value={rule.direction} onChange={(e) => setRules(rules.map((r, j) => (j === i ? { ...r, direction: e.target.value as 'asc' | 'desc' } : r)))}>
              <option value="asc">{t`Ascending`}</option>
              <option value="desc">{t`Descending`}</option>
            </select>
            <Button variant="ghost" size="sm" onClick={() => setRules(rules.filter((_, j) => j !== i))}>
              {t`Remove`}
            </Button>
          </li>
        ))}
      </ul>
      <Button variant="secondary" size="sm" onClick={() => setRules([...rules, { attribute_id: options[0]!.id, direction: 'asc' }])}>
        {t`Add sort`}
      </Button>
    </Popover>
  );
}

function GroupDialog({ anchor, folder, view, onClose }: { anchor: RefObject<HTMLButtonElement | null>; folder: Folder; view: ShownView; onClose: () => void }) {
  const { t } = useLingui();
  const change = useChangeView(folder, view);
  const board = useBoard();
  const [groupBy, setGroupBy] = useState<string>(view.settings.group_by ?? '');
  const [hideEmpty, setHideEmpty] = useState(view.settings.hide_empty_groups);
  const [subfolders, setSubfolders] = useState(view.settings.include_subfolders);
  const candidates = board.attributes.filter((a) => (view.kind === 'column' ? columnGroupProblem(a) === null : !['button', 'time-tracking', 'primary', 'custom-id', 'long-text', 'attachments'].includes(a.kind)));
  const apply = async () => {
    const attribute = board.attributes.find((a) => a.id === groupBy);
    if (view.kind === 'column' && attribute) {
      const problem = columnGroupProblem(attribute);
      if (problem) return void toast.show(problem, { kind: 'error' });
    }
    if ((await change({ group_by: groupBy || null, hide_empty_groups: hideEmpty, include_subfolders: subfolders })) === true) onClose();
  };
  return (
    <Popover anchor={anchor} open onClose={onClose} title={t`Group`} footer={<Button onClick={() => void apply()}>{t`Apply`}</Button>}>
      <label className="inline-field">
        {t`Group by`}
        <select value={groupBy} onChange={(e) => setGroupBy(e.target.value)} data-testid="group-by">
          <option value="">{view.kind === 'column' ? t`Choose a status or label` : t`No grouping`}</option>
          {candidates.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <input type="checkbox" checked={hideEmpty} onChange={(e) => setHideEmpty(e.target.checked)} data-testid="hide-empty-groups" />
        {t`Hide empty groups`}
      </label>
      <label className="inline-field">
        <input type="checkbox" checked={subfolders} onChange={(e) => setSubfolders(e.target.checked)} />
        {t`Show items of subfolders`}
      </label>
      {view.settings.hide_empty_groups && arrangeGroupsProblem(true) && <p className="hint">{t`Groups can be rearranged once empty groups are shown.`}</p>}
    </Popover>
  );
}
