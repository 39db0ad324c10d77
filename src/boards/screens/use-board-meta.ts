import { useEffect, useMemo, useState } from 'react';
import { useParams } from '@tanstack/react-router';
import type { BoardBackend } from '../store/backend';
import { useFolders, type Folder } from '../store/live';
import { useWorkspaceInfo } from '../store/workspace-info';
import { boardAccess } from '../model/access';

/** The board of a /team/{teamId}/boards/{boardId}/… screen, its folders and the viewer's rights. */
export function useBoardMeta(backend: BoardBackend) {
  const params = useParams({ strict: false }) as { teamId: number; boardId: string };
  const teamId = Number(params.teamId);
  const boardId = params.boardId;
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    let live = true;
    backend
      .openBoard(teamId, boardId)
      .catch(() => undefined)
      .finally(() => live && setOpened(true));
    return () => {
      live = false;
    };
  }, [backend, teamId, boardId]);
  const folders = useFolders(boardId);
  const info = useWorkspaceInfo(teamId, backend.userId);
  const board = folders?.find((f) => f.id === boardId) as Folder | undefined;
  const access = useMemo(
    () => boardAccess(info?.workspace ?? { id: teamId, owner_id: null, permissions: {} }, info?.viewer ?? { id: backend.userId, role: 'guest' }, folders ?? [], { preview: backend.preview }),
    [info, teamId, backend.userId, backend.preview, folders],
  );
  return { teamId, boardId, board, folders, info, access, loading: !opened && !board };
}
