import { useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { refusedEditText, type RefusedEditView } from '../../sync-worker/client';
import { useNotSaved } from '../connectivity/not-saved';
import { translateMessage } from '../i18n/server-messages';
import { Modal } from '../ui/Modal';
import { RefusedEditActions } from './RefusedEditActions';
import './not-saved.css';

/**
 * The "Not saved" part of the connectivity indicator (decision 0094): while the server has refused
 * some of the user's edits, a line says how many and opens the list, where each can be retried,
 * copied or discarded. Nothing shows when every edit reached the server.
 */
export function NotSavedIndicator() {
  const entries = useNotSaved();
  const [open, setOpen] = useState(false);
  if (entries.length === 0 && !open) return null;
  return (
    <>
      <div className="not-saved-indicator" role="status" data-testid="not-saved-indicator">
        <span className="not-saved-indicator__text">
          <Plural value={entries.length} one="# change was not saved" other="# changes were not saved" />
        </span>
        <button type="button" className="link-button" onClick={() => setOpen(true)} aria-haspopup="dialog">
          <Trans>Review</Trans>
        </button>
      </div>
      <NotSavedDialog open={open} entries={entries} onClose={() => setOpen(false)} />
    </>
  );
}

function NotSavedDialog({ open, entries, onClose }: { open: boolean; entries: RefusedEditView[]; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Modal open={open} onClose={onClose} title={t`Not saved`} size="md" className="not-saved-dialog">
      {entries.length === 0 ? (
        <p>
          <Trans>Every change has been saved.</Trans>
        </p>
      ) : (
        <>
          <p className="not-saved-dialog__intro">
            <Trans>The server refused these changes. Retry once the cause is fixed, copy them to keep them elsewhere, or discard them.</Trans>
          </p>
          <ul className="not-saved-list" data-testid="not-saved-list">
            {entries.map((entry) => (
              <NotSavedRow key={`${entry.collection}:${entry.id}`} entry={entry} />
            ))}
          </ul>
        </>
      )}
    </Modal>
  );
}

function NotSavedRow({ entry }: { entry: RefusedEditView }) {
  const { t, i18n } = useLingui();
  const { item, attribute, value } = entry.label;
  const kind = kindName(entry.collection, t);
  const when = i18n.date(new Date(entry.refused_at), { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <li className="not-saved-row" data-testid="not-saved-row">
      <div className="not-saved-row__what">
        <strong className="not-saved-row__title">{item ?? attribute ?? kind}</strong>
        {item && attribute ? <span className="not-saved-row__field">{attribute}</span> : null}
        {entry.method === 'delete' ? (
          <span className="not-saved-row__value">
            <Trans>Delete</Trans>
          </span>
        ) : value !== null ? (
          <bdi className="not-saved-row__value">{value}</bdi>
        ) : null}
      </div>
      <p className="not-saved-row__message">
        <bdi>{translateMessage(entry.message)}</bdi> <span className="not-saved-row__when">({when})</span>
      </p>
      <RefusedEditActions entry={entry} copyText={refusedEditText(entry)} />
    </li>
  );
}

/** The kind of record, for a row without a name of its own. */
function kindName(collection: string, t: ReturnType<typeof useLingui>['t']): string {
  switch (collection) {
    case 'item':
      return t`Item`;
    case 'value':
      return t`Value`;
    case 'comment':
      return t`Comment`;
    case 'attribute':
      return t`Attribute`;
    case 'folder':
      return t`Folder`;
    default:
      return t`Record`;
  }
}
