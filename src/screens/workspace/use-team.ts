import { useCallback, useEffect, useState } from 'react';
import { useParams } from '@tanstack/react-router';
import { showApiError } from '../../api/handle-error';
import { ApiRequestError, OFFLINE_STATUS } from '../../api/client';
import { useOnline } from '../../connectivity/use-connectivity';
import { useTeamVersion } from '../../navigation/team-events';

/** The teamId of a /team/{teamId} route, as a number. */
export function useTeamId(): number {
  const params = useParams({ strict: false }) as { teamId?: number };
  return Number(params.teamId);
}

/** Loads something for a screen; errors go to the shell's error handling. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; reload: () => void; failed: boolean } {
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  const [failedOffline, setFailedOffline] = useState(false);
  const [version, setVersion] = useState(0);
  // Live: a workspace screen loads again on its team.{id}.users / .permissions events (shell.md §7).
  const teamId = useTeamId();
  const teamVersion = useTeamVersion(Number.isFinite(teamId) ? teamId : null);
  useEffect(() => {
    let live = true;
    load()
      .then((value) => {
        if (live) {
          setData(value);
          setFailed(false);
          setFailedOffline(false);
        }
      })
      .catch((error) => {
        if (!live) return;
        setFailed(true);
        setFailedOffline(error instanceof ApiRequestError && error.status === OFFLINE_STATUS);
        showApiError(error);
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, version, teamVersion]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  // A screen opened offline (its code comes from the service worker) loads when the network returns.
  const online = useOnline();
  useEffect(() => {
    if (online && failedOffline) reload();
  }, [online, failedOffline, reload]);
  return { data, reload, failed };
}
