import { useMemo, useState, type FormEvent, type SyntheticEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Modal } from '../../ui/Modal';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Attribute, Item } from '../store/live';
import { TimeCommands } from './time-commands';
import { clockText, durationMs, hoursText, runningEntry, totalMs, visibleEntries } from './time-model';
import { useItemTimeEntries, useNow } from './use-time-entries';
import './time.css';

/** Clicks and keys on the control are its own: the cell, card or row around it must not act on them. */
const keep = (event: SyntheticEvent) => event.stopPropagation();

/** Whether the viewer may track time on this board (signed-in members; guests do not track time). */
export function useMayTrack(): boolean {
  const board = useBoard();
  return board.backend.userId !== null && board.info?.viewer.role !== 'guest';
}

/**
 * Start/stop on a time-tracking attribute (table cell, kanban card, item panel). A running timer
 * of the viewer ticks; otherwise the item's tracked total (the entries the viewer may see) shows.
 * Starting asks what the user works on (workspace.md §4: a start needs a description).
 */
export function TimerControl({ attribute, item }: { attribute: Attribute; item: Item }) {
  const { t } = useLingui();
  const board = useBoard();
  const mayTrack = useMayTrack();
  const entries = useItemTimeEntries(item.id);
  const viewer = board.backend.userId;
  const visible = useMemo(() => visibleEntries(entries ?? [], attribute, viewer), [entries, attribute, viewer]);
  const running = runningEntry(visible, attribute.id, item.id, viewer);
  const now = useNow(visible.some((e) => e.ended_at === null));
  const [asking, setAsking] = useState(false);
  const commands = useMemo(() => new TimeCommands(board.backend, board.teamId, board.boardId), [board.backend, board.teamId, board.boardId]);
  const name = item.name || t`Untitled`;
  const total = totalMs(visible, now);

  const stop = () =>
    void commands.stop(running!).catch((error: Error) => {
      const reason = error.message;
      toast.show(t`The timer could not be stopped: ${reason}`, { kind: 'error' });
    });

  return (
    <span className={`time-control${running ? ' is-running' : ''}`} onClick={keep} onDoubleClick={keep} onPointerDown={keep} onKeyDown={keep} data-testid="time-control">
      {mayTrack &&
        (running ? (
          <button type="button" className="time-toggle" onClick={stop} aria-label={t`Stop the timer on ${name}`} title={running.description ?? undefined}>
            <span aria-hidden="true">■</span>
          </button>
        ) : (
          <button type="button" className="time-toggle" onClick={() => setAsking(true)} aria-label={t`Start a timer on ${name}`}>
            <span aria-hidden="true">▶</span>
          </button>
        ))}
      <span className="time-figure" data-testid="time-figure" aria-live="off" title={running ? t`Running` : t`Time tracked`}>
        {running ? clockText(durationMs(running, now)) : total > 0 ? hoursText(total) : ''}
      </span>
      {asking && (
        <StartTimerDialog
          itemName={name}
          initial={visible.find((e) => e.created_by === viewer)?.description ?? ''}
          onClose={() => setAsking(false)}
          onStart={(description) => commands.start(item.id, attribute, description)}
        />
      )}
    </span>
  );
}

/** Asks what the user is working on, then starts. */
export function StartTimerDialog({ itemName, initial, onStart, onClose }: { itemName: string; initial: string; onStart: (description: string) => Promise<unknown>; onClose: () => void }) {
  const { t } = useLingui();
  const [description, setDescription] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!description.trim()) {
      setError(t`Describe what you are working on.`);
      return;
    }
    try {
      await onStart(description.trim());
      onClose();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <Modal open onClose={onClose} title={t`Start a timer on ${itemName}`} size="sm">
      <form onSubmit={submit} className="board-form">
        <label>
          {t`What are you working on?`}
          <input autoFocus value={description} maxLength={10_000} onChange={(e) => setDescription(e.target.value)} aria-invalid={error ? true : undefined} data-testid="time-description" />
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="board-form-actions">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit">
            <Trans>Start</Trans>
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** The card's timers: one control per shown time-tracking attribute of the board. */
export function CardTimers({ item }: { item: Item }) {
  const board = useBoard();
  const attributes = board.attributes.filter((a) => a.kind === 'time-tracking' && !a.hidden);
  if (attributes.length === 0) return null;
  return (
    <span className="card-timers">
      {attributes.map((a) => (
        <TimerControl key={a.id} attribute={a} item={item} />
      ))}
    </span>
  );
}
