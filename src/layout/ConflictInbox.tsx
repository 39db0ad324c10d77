import { useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { InboxEntry, RefusedReason } from '../../sync-worker/client';
import { conflictInbox, useConflicts } from '../connectivity/conflicts';
import { Modal } from '../ui/Modal';
import { Button } from '../ui/Button';
import { toast } from '../ui/toast-store';
import { useSession } from '../api/session';
import { useWorkspaceInfo } from '../boards/store/workspace-info';
import { useInboxWords, type InboxWords } from './inbox-words';
import { RefusedEditActions } from './RefusedEditActions';
import { InboxMenu } from './InboxMenu';
import { useDeletedAuthors } from './deleted-authors';
import './conflict-inbox.css';

type ConflictRow = Extract<InboxEntry, { type: 'conflict' }>;
type RefusedRow = Extract<InboxEntry, { type: 'refused' }>;

/**
 * The conflict inbox (issue #30 part 2): each field another user's save won over mine, with my
 * value, theirs, who and when, **Keep mine** (saved again over the current copy) and **Keep
 * theirs**; text side by side. Below, the edits the server refused, with the reason in plain words
 * and the value kept. Opened from the sidebar, the palette and the conflict toast.
 */
export function ConflictInboxPanel() {
  const { t } = useLingui();
  const { entries, open } = useConflicts();
  const userId = useSession().user?.id ?? null;
  const deleted = useDeletedAuthors(open, entries.map((e) => (e.type === 'conflict' ? e.seq : '')).join(','));
  const words = useInboxWords(userId, deleted);
  const firstTeam = entries.find((e): e is ConflictRow => e.type === 'conflict' && e.team_id !== undefined)?.team_id ?? null;
  // Loads (and remembers) the members of the workspace the first conflict is in, so names are fresh.
  useWorkspaceInfo(open ? firstTeam : null, userId);
  if (!open) return null;
  const conflicts = entries.filter((e): e is ConflictRow => e.type === 'conflict');
  const refused = entries.filter((e): e is RefusedRow => e.type === 'refused');
  return (
    <Modal open onClose={() => conflictInbox.closePanel()} title={t`Conflicts`} size="lg" className="conflict-inbox">
      <InboxMenu />
      {conflicts.length === 0 && refused.length === 0 && (
        <p data-testid="conflicts-empty">
          <Trans>No conflicts. Every change you made is either saved or waiting to sync.</Trans>
        </p>
      )}
      {conflicts.length > 0 && (
        <>
          <p className="conflict-inbox__intro">
            <Trans>Someone else changed these fields while your change was on its way. Their value is shown now; yours is kept here until you choose.</Trans>
          </p>
          <ul className="conflict-list" data-testid="conflict-list">
            {conflicts.map((entry) => (
              <ConflictItem key={entry.seq} entry={entry} words={words} />
            ))}
          </ul>
        </>
      )}
      {refused.length > 0 && (
        <>
          <h3>
            <Plural value={refused.length} one="# change the server refused" other="# changes the server refused" />
          </h3>
          <ul className="conflict-list" data-testid="refused-list">
            {refused.map((entry) => (
              <RefusedItem key={`${entry.collection}:${entry.id}`} entry={entry} words={words} />
            ))}
          </ul>
        </>
      )}
    </Modal>
  );
}

function ConflictItem({ entry, words }: { entry: ConflictRow; words: InboxWords }) {
  const { t, i18n } = useLingui();
  const show = (value: unknown) => (entry.text && typeof value === 'string' ? value || t`(empty)` : words.value(entry.label, value, entry.team_id));
  const [busy, setBusy] = useState(false);
  const item = entry.label.item ?? t`An item`;
  const field = entry.label.field ?? entry.field ?? t`the record`;
  const when = entry.theirs_at ? i18n.date(new Date(entry.theirs_at), { dateStyle: 'medium', timeStyle: 'short' }) : i18n.date(new Date(entry.time), { dateStyle: 'medium', timeStyle: 'short' });
  const who = words.person(entry.theirs_by, entry.team_id) ?? t`another user`;
  const choose = async (choice: 'mine' | 'theirs') => {
    setBusy(true);
    try {
      const result = await conflictInbox.resolve(entry.seq, choice);
      if (result === 'gone') toast.show(t`“${item}” is no longer on this device, so your value could not be applied. It stays here.`, { kind: 'error' });
    } catch {
      toast.show(t`The choice could not be saved. Try again.`, { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const mine = show(entry.mine);
  const theirs = show(entry.theirs);
  return (
    <li className="conflict-item" data-testid="conflict-item" data-item-id={entry.item_id ?? ''}>
      <div className="conflict-item__head">
        <strong>{item}</strong> · <span>{field}</span>
        <span className="muted">
          {' '}
          · <Trans>changed by {who}, {when}</Trans>
        </span>
      </div>
      <div className={`conflict-values${entry.text ? ' conflict-values--text' : ''}`} data-testid={entry.text ? 'conflict-side-by-side' : undefined}>
        <div className="conflict-value" data-testid="conflict-mine">
          <span className="conflict-value__label">
            <Trans>Mine</Trans>
          </span>
          {entry.text ? <pre>{mine}</pre> : <span>{mine}</span>}
        </div>
        <div className="conflict-value" data-testid="conflict-theirs">
          <span className="conflict-value__label">
            <Trans>Theirs (shown now)</Trans>
          </span>
          {entry.text ? <pre>{theirs}</pre> : <span>{theirs}</span>}
        </div>
      </div>
      <div className="conflict-item__actions">
        <Button variant="primary" onClick={() => void choose('mine')} disabled={busy}>
          <Trans>Keep mine</Trans>
        </Button>
        <Button variant="secondary" onClick={() => void choose('theirs')} disabled={busy}>
          <Trans>Keep theirs</Trans>
        </Button>
      </div>
    </li>
  );
}

function RefusedItem({ entry, words }: { entry: RefusedRow; words: InboxWords }) {
  const { t, i18n } = useLingui();
  const teamId = typeof entry.item?.team_id === 'number' ? entry.item.team_id : undefined;
  const show = (value: unknown) => words.value(entry.label, value, teamId);
  const reasons: Record<RefusedReason, string> = {
    permission: t`You no longer have permission to make this change.`,
    deleted: t`The item was deleted before your change reached the server.`,
    validation: t`The server did not accept the value: a rule changed or the value is not valid.`,
    quota: t`The workspace has reached a limit of its plan or storage.`,
    dependent: t`Not applied, because it was built on a change that was not saved.`,
    other: t`The server refused the change.`,
  };
  const kept = entry.item ? (entry.collection === 'value' ? show((entry.item as { value?: unknown }).value) : show((entry.item as { name?: unknown }).name ?? entry.item)) : t`(a delete)`;
  return (
    <li className="conflict-item" data-testid="refused-item">
      <div className="conflict-item__head">
        <strong>{entry.label.item ?? t`An item`}</strong>
        {entry.label.field && <span> · {entry.label.field}</span>}
        <span className="muted"> · {i18n.date(new Date(entry.time), { dateStyle: 'medium', timeStyle: 'short' })}</span>
      </div>
      <p className="conflict-reason">{reasons[entry.reason] ?? reasons.other}</p>
      <div className="conflict-value">
        <span className="conflict-value__label">
          <Trans>Your value, kept</Trans>
        </span>
        <span data-testid="refused-kept">{kept}</span>
      </div>
      <RefusedEditActions entry={entry} />
    </li>
  );
}

/** "Conflicts (n)" in the sidebar, shown while there are any. */
export function ConflictsSidebarEntry() {
  const { conflicts: conflictCount, entries } = useConflicts();
  const refused = entries.length - conflictCount;
  if (conflictCount === 0 && refused === 0) return null;
  return (
    <li>
      <button type="button" className="shell-sidebar-button conflicts-entry" data-testid="conflicts-entry" onClick={() => conflictInbox.openPanel()}>
        <span aria-hidden="true">⚠</span> <Trans>Conflicts ({conflictCount})</Trans>
      </button>
    </li>
  );
}
