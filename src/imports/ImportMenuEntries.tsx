import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { GitMerge, SquareKanban } from 'lucide-react';
import { pathFor } from '../../schema/routes';
import type { MenuItem } from '../ui/MenuList';
import { useBoard } from '../boards/BoardContext';
import type { Folder } from '../boards/store/live';

// The Gitlab dialog is a chunk of its own; the Trello import is a screen of its own (decision 0220).
const GitlabImportDialog = lazy(() => import('./GitlabImportDialog'));

/**
 * "Import from Trello" and "Import from Gitlab": entries of the "More" menu of a folder's view
 * controls, next to Import CSV (decision 0276). The Gitlab dialog is rendered by the caller.
 */
export function useImportMenuEntries(folder: Folder): { items: MenuItem[]; dialog: ReactNode } {
  const { t } = useLingui();
  const board = useBoard();
  const navigate = useNavigate();
  const [gitlab, setGitlab] = useState(false);
  const items: MenuItem[] = [
    {
      id: 'trello-import',
      label: t`Import from Trello`,
      icon: <SquareKanban size={15} />,
      onSelect: () => void navigate({ href: pathFor('trello-import', { teamId: board.teamId, boardId: board.boardId, folderId: folder.id }) }),
    },
    { id: 'gitlab-import', label: t`Import from Gitlab`, icon: <GitMerge size={15} />, onSelect: () => setGitlab(true) },
  ];
  const dialog = gitlab ? (
    <Suspense fallback={null}>
      <GitlabImportDialog folder={folder} onClose={() => setGitlab(false)} />
    </Suspense>
  ) : null;
  return { items, dialog };
}
