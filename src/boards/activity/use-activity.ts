import { useCallback, useEffect, useRef, useState } from 'react';
import { useOnline } from '../../connectivity/use-connectivity';
import { fetchActivity } from './activity-api';
import type { ActivityEntry, ActivityFilter } from './activity-format';

export interface ActivityState {
  entries: ActivityEntry[];
  hasMore: boolean;
  loading: boolean;
  error: Error | null;
  /** Actors of the pages read whose account the server does not find ("Deleted Account"). */
  deletedUserIds: ReadonlySet<number>;
  loadMore(): void;
  reload(): void;
}

/**
 * The pages of the activity log read so far for a filter. A new filter starts again from the
 * newest; "Load more" asks for the page after the last one. An answer for an older filter that
 * arrives late is dropped. Offline nothing is asked (the caller shows the offline note).
 */
export function useActivity(teamId: number, filter: ActivityFilter, pageSize = 50): ActivityState {
  const online = useOnline();
  const key = JSON.stringify(filter);
  const [entries, setEntries] = useState<ActivityEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [deletedUserIds, setDeletedUserIds] = useState<ReadonlySet<number>>(() => new Set());
  const generation = useRef(0);

  const load = useCallback(
    (after: string | null) => {
      const mine = ++generation.current;
      setLoading(true);
      setError(null);
      fetchActivity(teamId, JSON.parse(key) as ActivityFilter, after, pageSize)
        .then((page) => {
          if (mine !== generation.current) return;
          setEntries((before) => (after ? [...before, ...page.data.filter((e) => !before.some((b) => b.id === e.id))] : page.data));
          setCursor(page.after);
          if (page.deleted_user_ids.length > 0) setDeletedUserIds((before) => new Set([...before, ...page.deleted_user_ids]));
          setHasMore(page.has_more);
        })
        .catch((e: Error) => mine === generation.current && setError(e))
        .finally(() => mine === generation.current && setLoading(false));
    },
    [teamId, key, pageSize],
  );

  useEffect(() => {
    setEntries([]);
    setCursor(null);
    setHasMore(false);
    if (online) load(null);
  }, [load, online]);

  return {
    entries,
    hasMore,
    loading,
    error,
    deletedUserIds,
    loadMore: () => {
      if (!loading && hasMore && cursor) load(cursor);
    },
    reload: () => load(null),
  };
}
