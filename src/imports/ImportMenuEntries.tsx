import { lazy, Suspense, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import { Button } from '../ui/Button';
import { useBoard } from '../boards/BoardContext';
import type { Folder } from '../boards/store/live';

// The Gitlab dialog is a chunk of its own; the Trello import is a screen of its own (decision 0220).
const GitlabImportDialog = lazy(() => import('./GitlabImportDialog'));

/** "Import from Trello" and "Import from Gitlab", next to Import CSV in a folder's view controls. */
export function ImportMenuEntries({ folder }: { folder: Folder }) {
  const board = useBoard();
  const [gitlab, setGitlab] = useState(false);
  return (
    <>
      <Link className="ui-button ui-button--ghost ui-button--sm" to={pathFor('trello-import', { teamId: board.teamId, boardId: board.boardId, folderId: folder.id })} data-testid="trello-import-link">
        <Trans>Import from Trello</Trans>
      </Link>
      <Button variant="ghost" size="sm" onClick={() => setGitlab(true)} data-testid="gitlab-import-button">
        <Trans>Import from Gitlab</Trans>
      </Button>
      {gitlab && (
        <Suspense fallback={null}>
          <GitlabImportDialog folder={folder} onClose={() => setGitlab(false)} />
        </Suspense>
      )}
    </>
  );
}
