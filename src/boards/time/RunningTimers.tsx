import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { pathFor } from '../../../schema/routes';
import { toast } from '../../ui/toast-store';
import { backendFor } from '../store/use-backend';
import type { BoardBackend } from '../store/backend';
import { clockText, durationMs, type TimeEntry } from './time-model';
import { useNow } from './use-time-entries';
import './time.css';

interface Running {
  entry: TimeEntry;
  itemName: string;
  teamId: number | null;
}

/**
 * The frame's running timers (a lazy chunk, loaded once signed in): the user's running entries as
 * the replica holds them — started in this tab, another tab, or another browser (TimeEntrySaved on
 * the personal channel) — ticking on every screen, each with its item and a stop button.
 */
export default function RunningTimers({ userId }: { userId: number }) {
  const [backend, setBackend] = useState<BoardBackend | null>(null);
  useEffect(() => {
    let live = true;
    backendFor(userId).then((b) => live && setBackend(b), () => undefined);
    return () => {
      live = false;
    };
  }, [userId]);
  return backend ? <RunningList backend={backend} userId={userId} /> : null;
}

function RunningList({ backend, userId }: { backend: BoardBackend; userId: number }) {
  const { t } = useLingui();
  const running = useLiveQuery(async (): Promise<Running[]> => {
    // Time entries of every board on this device (the collection's primary-key range).
    const all = (await backend.db.records.where('[collection+id]').between(['time_entry', Dexie.minKey], ['time_entry', Dexie.maxKey]).toArray()) as unknown as TimeEntry[];
    const mine = all.filter((e) => e.ended_at === null && e.created_by === userId);
    return Promise.all(
      mine.map(async (entry) => {
        const item = entry.item_id ? ((await backend.db.records.get(['item', entry.item_id])) as { name?: string } | undefined) : undefined;
        const board = (await backend.db.records.get(['folder', entry.board_id])) as { team_id?: number } | undefined;
        return { entry, itemName: item?.name ?? '', teamId: entry.team_id ?? board?.team_id ?? null };
      }),
    );
  }, [backend, userId]);
  const now = useNow(Boolean(running?.length));
  if (!running || running.length === 0) return null;
  const stop = (r: Running) => {
    if (r.teamId === null) return;
    void backend.apply('stopTimer', { id: r.entry.id, endedAt: new Date().toISOString() }, { teamId: r.teamId }).catch((error: Error) => {
      const reason = error.message;
      toast.show(t`The timer could not be stopped: ${reason}`, { kind: 'error' });
    });
  };
  return (
    <ul className="running-timers" aria-label={t`Running timers`} data-testid="running-timers">
      {running.map((r) => {
        const name = r.itemName || t`Untitled`;
        return (
          <li key={r.entry.id} className="time-control is-running">
            <button type="button" className="time-toggle" onClick={() => stop(r)} aria-label={t`Stop the timer on ${name}`} disabled={r.teamId === null}>
              <span aria-hidden="true">■</span>
            </button>
            <span className="time-figure">{clockText(durationMs(r.entry, now))}</span>
            {r.entry.item_id ? (
              <Link className="running-timer-item" to={pathFor('folder', { rootId: r.entry.board_id, folderId: r.entry.board_id, itemId: r.entry.item_id }) + '?t=time'} title={r.entry.description ?? undefined}>
                {name}
              </Link>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
