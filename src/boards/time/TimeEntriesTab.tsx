import { useMemo, useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { confirm } from '../../ui/confirm-store';
import { toast } from '../../ui/toast-store';
import { formatDate } from '../../i18n/locale';
import { useBoard } from '../BoardContext';
import type { Attribute, Item } from '../store/live';
import { TimeCommands } from './time-commands';
import { clockText, durationMs, hoursText, totalMs, visibleEntries, type TimeEntry } from './time-model';
import { TimerControl } from './TimerControl';
import { useItemTimeEntries, useNow } from './use-time-entries';
import './time.css';

/**
 * The item panel's Time tab (`?t=time`): per time-tracking attribute, the start/stop control and
 * the entries the viewer may see (everyone's, or only their own when sharedEntries is off), newest
 * first; the viewer edits or deletes their own.
 */
export default function TimeEntriesTab({ item }: { item: Item }) {
  const { t } = useLingui();
  const board = useBoard();
  const attributes = board.attributes.filter((a) => a.kind === 'time-tracking');
  const entries = useItemTimeEntries(item.id);
  if (attributes.length === 0) return <EmptyState title={t`This board has no time-tracking attribute.`} text={t`Add one in the board’s attributes to track time on items.`} />;
  return (
    <div className="time-entries" data-testid="time-entries">
      {attributes.map((attribute) => (
        <AttributeEntries key={attribute.id} attribute={attribute} item={item} entries={entries ?? []} />
      ))}
    </div>
  );
}

function AttributeEntries({ attribute, item, entries }: { attribute: Attribute; item: Item; entries: TimeEntry[] }) {
  const { t } = useLingui();
  const board = useBoard();
  const viewer = board.backend.userId;
  const visible = useMemo(() => visibleEntries(entries, attribute, viewer), [entries, attribute, viewer]);
  const now = useNow(visible.some((e) => e.ended_at === null));
  const total = hoursText(totalMs(visible, now));
  return (
    <section aria-label={attribute.name}>
      <header className="time-entries-head">
        <h3>{attribute.name}</h3>
        <TimerControl attribute={attribute} item={item} />
      </header>
      <p className="time-entry-meta">{t`Total: ${total}`}</p>
      {visible.length === 0 ? (
        <p className="time-entry-meta">
          <Trans>No time tracked yet.</Trans>
        </p>
      ) : (
        <ul className="time-entry-list">
          {visible.map((entry) => (
            <EntryRow key={entry.id} entry={entry} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** A datetime-local input's value for an ISO time, in the browser's zone. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function EntryRow({ entry, now }: { entry: TimeEntry; now: number }) {
  const { t, i18n } = useLingui();
  const board = useBoard();
  const own = board.backend.userId !== null && entry.created_by === board.backend.userId;
  const [editing, setEditing] = useState(false);
  const commands = useMemo(() => new TimeCommands(board.backend, board.teamId, board.boardId), [board.backend, board.teamId, board.boardId]);
  const who = board.info?.members.find((m) => m.id === entry.created_by)?.name ?? (own ? t`You` : t`Removed User`);
  const when = formatDate(entry.started_at, i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
  const running = entry.ended_at === null;
  const fail = (error: Error) => toast.show(t`That did not work: ${error.message}`, { kind: 'error' });
  return (
    <li className="time-entry" data-entry-id={entry.id}>
      <span>{entry.description || t`No description`}</span>
      <strong className="time-figure">{running ? clockText(durationMs(entry, now)) : hoursText(durationMs(entry, now))}</strong>
      <span className="time-entry-meta">{running ? t`${who} · since ${when} · running` : t`${who} · ${when}`}</span>
      {own && !editing && (
        <span className="time-entry-actions">
          <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>
            <Trans>Edit</Trans>
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={async () => {
              if (!(await confirm({ message: t`Delete this time entry?`, danger: true }))) return;
              await commands.remove(entry).catch(fail);
            }}
          >
            <Trans>Delete</Trans>
          </Button>
        </span>
      )}
      {own && editing && <EntryForm entry={entry} onDone={() => setEditing(false)} onSave={(patch) => commands.edit(entry, patch)} />}
    </li>
  );
}

function EntryForm({ entry, onSave, onDone }: { entry: TimeEntry; onSave: (patch: Partial<TimeEntry>) => Promise<void>; onDone: () => void }) {
  const { t } = useLingui();
  const [description, setDescription] = useState(entry.description ?? '');
  const [start, setStart] = useState(localInput(entry.started_at));
  const [end, setEnd] = useState(localInput(entry.ended_at));
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const startedAt = new Date(start);
    const endedAt = end ? new Date(end) : null;
    if (!description.trim()) return setError(t`Describe what you are working on.`);
    if (Number.isNaN(startedAt.getTime()) || (endedAt && Number.isNaN(endedAt.getTime()))) return setError(t`Enter a valid date and time.`);
    if (endedAt && endedAt < startedAt) return setError(t`An entry cannot end before it starts.`);
    // A running entry keeps running unless an end is given; an ended one keeps an end.
    if (!endedAt && entry.ended_at !== null) return setError(t`Enter when the entry ended.`);
    try {
      // Minutes only in the form: an unchanged field keeps its exact stored time.
      const patch: Partial<TimeEntry> = { description: description.trim() };
      if (start !== localInput(entry.started_at)) patch.started_at = startedAt.toISOString();
      if (end !== localInput(entry.ended_at)) patch.ended_at = endedAt ? endedAt.toISOString() : null;
      await onSave(patch);
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form className="time-entry-form" onSubmit={submit}>
      <label>
        {t`Description`}
        <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={10_000} />
      </label>
      <label>
        {t`Started`}
        <input type="datetime-local" value={start} onChange={(e) => setStart(e.target.value)} />
      </label>
      <label>
        {t`Ended`}
        <input type="datetime-local" value={end} onChange={(e) => setEnd(e.target.value)} />
      </label>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <span className="time-entry-actions">
        <Button type="button" variant="secondary" size="sm" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" size="sm">
          <Trans>Save</Trans>
        </Button>
      </span>
    </form>
  );
}
