import { useCallback, useEffect, useState } from 'react';
import { useParams } from '@tanstack/react-router';
import { showApiError } from '../../api/handle-error';

/** The teamId of a /team/{teamId} route, as a number. */
export function useTeamId(): number {
  const params = useParams({ strict: false }) as { teamId?: number };
  return Number(params.teamId);
}

/** Loads something for a screen; errors go to the shell's error handling. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; reload: () => void; failed: boolean } {
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    load()
      .then((value) => {
        if (live) {
          setData(value);
          setFailed(false);
        }
      })
      .catch((error) => {
        if (!live) return;
        setFailed(true);
        showApiError(error);
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, reload, failed };
}
