import { useCallback, useEffect, useMemo, useState } from 'react';
import { Command } from 'cmdk';
import { useMatches, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import { THEME_MODE } from '../../schema/constants';
import { Accounts } from '../api/endpoints';
import { session, useSession } from '../api/session';
import { useWorkspaces } from '../api/workspaces-cache';
import { applyThemeMode } from '../preferences';
import { store } from '../storage/local-store';
import { loadItems, loadPlaces, loadViews, type Target } from './palette-data';
import { buildIndex, remember, search, type SearchIndex } from './palette-search';
import { openRequestedAt } from './PaletteHost';
import './palette.css';
import { conflictInbox, useConflicts } from '../connectivity/conflicts';

/**
 * The command palette (Ctrl/Cmd+K; issue #17 part 3): jump to any board, folder or item — searched
 * in the replica — or run an action (new item, new board, switch view, toggle the theme, go to
 * settings). Recent picks come first. cmdk gives the listbox, keyboard and screen-reader semantics;
 * the search is ours (src/palette/palette-search.ts), so 100,000 items stay fast.
 */

interface Action extends Target {
  run?: () => void;
}

const RECENT_KEY = 'paletteRecent';
const SHOWN = { recent: 6, places: 8, items: 10, actions: 8 };

export default function CommandPalette({ onClose, onShortcuts }: { onClose(): void; onShortcuts(): void }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const matches = useMatches();
  const current = matches[matches.length - 1];
  const routeName = (current?.staticData?.route as { name?: string } | undefined)?.name;
  const params = (current?.params ?? {}) as { rootId?: string; teamId?: number };
  const { user } = useSession();
  const { list: workspaces } = useWorkspaces();
  const [query, setQuery] = useState('');
  const [places, setPlaces] = useState<SearchIndex<Target>>(() => buildIndex([]));
  const [boardTeams, setBoardTeams] = useState<Map<string, number>>(new Map());
  const [items, setItems] = useState<SearchIndex<Target> | null>(null);
  const [views, setViews] = useState<{ id: string; name: string; folderId: string }[]>([]);
  const [recent, setRecent] = useState<Target[]>(() => store.get<Target[]>(RECENT_KEY, []));
  // How long the palette took to open (key press to its element on the page), for the e2e.
  const markOpened = useCallback((el: HTMLDivElement | null) => {
    if (el && openRequestedAt && !el.dataset.openMs) el.dataset.openMs = (performance.now() - openRequestedAt).toFixed(1);
  }, []);

  useEffect(() => {
    if (!user) return;
    let live = true;
    void loadPlaces(user.id, workspaces ?? []).then(async ({ places: found, boardNames, boardTeams: teams }) => {
      if (!live) return;
      setPlaces(buildIndex(found));
      setBoardTeams(teams);
      const index = await loadItems(user.id, boardNames);
      if (live) setItems(index);
    });
    if (params.rootId) void loadViews(user.id, params.rootId).then((found) => live && setViews(found));
    return () => {
      live = false;
    };
  }, [user, workspaces, params.rootId]);

  const onBoard = (routeName === 'board' || routeName === 'folder') && Boolean(params.rootId);
  const teamId = params.teamId ?? (params.rootId ? boardTeams.get(params.rootId) : undefined) ?? workspaces?.[0]?.id;

  const conflictCount = useConflicts().conflicts;
  const actions = useMemo<Action[]>(() => {
    const dark = document.documentElement.dataset.theme === 'dark';
    const list: Action[] = [];
    if (onBoard) {
      list.push({ id: 'new-item', kind: 'action', label: t`New item`, keywords: t`create add task row`, href: '', run: () => (document.querySelector<HTMLButtonElement>('[data-testid="new-item"]'))?.click() });
      for (const view of views) {
        list.push({ id: `view-${view.id}`, kind: 'view', label: t`Switch to view: ${view.name}`, keywords: t`tab`, href: `${view.folderId === params.rootId ? pathFor('board', { rootId: params.rootId! }) : pathFor('folder', { rootId: params.rootId!, folderId: view.folderId })}?view=${encodeURIComponent(view.id)}` });
      }
    }
    if (teamId) list.push({ id: 'new-board', kind: 'action', label: t`New board`, keywords: t`create add`, href: pathFor('create-board', { teamId }) });
    list.push({
      id: 'theme',
      kind: 'action',
      label: dark ? t`Switch to the light theme` : t`Switch to the dark theme`,
      keywords: t`theme dark light mode colours`,
      href: '',
      run: () => {
        const mode = dark ? THEME_MODE.light : THEME_MODE.dark;
        applyThemeMode(mode);
        // Saved on the account too (when the server answers), so it follows the user to other devices.
        Accounts.updateMe({ theme: mode }).then((profile) => session.setUser(profile), () => undefined);
      },
    });
    list.push({ id: 'home', kind: 'action', label: t`Go to Home`, keywords: t`workspaces start`, href: pathFor('home') });
    if (teamId) {
      list.push({ id: 'workspace', kind: 'action', label: t`Go to the workspace overview`, keywords: t`boards members activity`, href: pathFor('team.boards', { teamId }) });
      list.push({ id: 'members', kind: 'action', label: t`Go to members`, keywords: t`invite people team`, href: pathFor('team.members', { teamId }) });
      list.push({ id: 'team-settings', kind: 'action', label: t`Go to workspace settings`, keywords: t`settings workspace`, href: pathFor('team.settings', { teamId }) });
    }
    list.push({ id: 'settings', kind: 'action', label: t`Go to profile settings`, keywords: t`settings preferences language account`, href: pathFor('profile') });
    list.push({ id: 'shortcuts', kind: 'action', label: t`Show keyboard shortcuts`, keywords: t`help keys`, href: '', run: onShortcuts });
    // The conflict inbox (issue #30 part 2), with its count.
    list.push({ id: 'conflicts', kind: 'action', label: t`Conflicts (${conflictCount})`, keywords: t`conflict inbox overlapped lost changes keep mine theirs`, href: '', run: () => conflictInbox.openPanel() });
    return list;
  }, [t, onBoard, views, teamId, params.rootId, onShortcuts, conflictCount]);

  const actionIndex = useMemo(() => buildIndex(actions), [actions]);
  const trimmed = query.trim();
  const shownActions = search(actionIndex, trimmed, trimmed ? SHOWN.actions : actions.length);
  const shownPlaces = trimmed ? search(places, trimmed, SHOWN.places) : [];
  const shownItems = trimmed && items ? search(items, trimmed, SHOWN.items) : [];
  const shownRecent = trimmed ? [] : recent.slice(0, SHOWN.recent);

  const choose = (entry: Action) => {
    if (entry.kind !== 'action') {
      const next = remember(recent, { id: entry.id, kind: entry.kind, label: entry.label, detail: entry.detail, href: entry.href });
      store.set(RECENT_KEY, next);
      setRecent(next);
    }
    if (entry.id === 'shortcuts') return entry.run?.();
    onClose();
    // After the dialog is gone, so focus lands where the action puts it (the new-item row).
    if (entry.run) window.setTimeout(entry.run, 0);
    else if (entry.href) void navigate({ href: entry.href });
  };

  const row = (entry: Action, group: string) => (
    <Command.Item key={`${group}-${entry.kind}-${entry.id}`} value={`${group}-${entry.kind}-${entry.id}`} onSelect={() => choose(entry)} className="palette-item" data-kind={entry.kind}>
      <span className="palette-item__kind" aria-hidden="true">
        {KIND_MARK[entry.kind]}
      </span>
      <span className="palette-item__label">{entry.label}</span>
      {entry.detail && <span className="palette-item__detail">{entry.detail}</span>}
    </Command.Item>
  );

  return (
    <Command.Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      label={t`Command palette`}
      shouldFilter={false}
      loop
      overlayClassName="palette-overlay"
      contentClassName="palette-content"
      className="palette"
      ref={markOpened}
      data-testid="command-palette"
    >
      <Command.Input value={query} onValueChange={setQuery} placeholder={t`Search boards, items and actions…`} className="palette-input" data-testid="palette-input" />
      <Command.List className="palette-list">
        <Command.Empty className="palette-empty">{items === null && trimmed ? t`Searching…` : t`Nothing matches. Try fewer or other words.`}</Command.Empty>
        {shownRecent.length > 0 && <Command.Group heading={t`Recent`}>{shownRecent.map((e) => row(e, 'recent'))}</Command.Group>}
        {shownPlaces.length > 0 && <Command.Group heading={t`Boards and folders`}>{shownPlaces.map((e) => row(e, 'places'))}</Command.Group>}
        {shownItems.length > 0 && <Command.Group heading={t`Items`}>{shownItems.map((e) => row(e, 'items'))}</Command.Group>}
        {shownActions.length > 0 && <Command.Group heading={t`Actions`}>{shownActions.map((e) => row(e, 'actions'))}</Command.Group>}
      </Command.List>
      <div className="palette-footer" aria-hidden="true">
        <Trans>↑↓ to move · Enter to open · Esc to close</Trans>
      </div>
    </Command.Dialog>
  );
}

const KIND_MARK: Record<Target['kind'], string> = { item: '•', board: '▦', folder: '▸', workspace: '◆', action: '›', view: '▤' };
