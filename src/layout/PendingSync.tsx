import { useEffect, useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { loadReadonlyDb, type FailedRequestSummary } from '../../sync-worker/client';
import { useSession } from '../api/session';
import { pendingSync, usePendingCount } from '../connectivity/pending-sync';
import { Modal } from '../ui/Modal';

/** One waiting change in words: what record, and which item it belongs to. */
interface PendingRow {
  key: string;
  what: string;
  item: string | null;
  field: string | null;
  error: string | null;
}

/**
 * "N changes waiting to sync" (issue #30 part 5): the edits stored on this device that the server
 * has not taken yet. Shown in the offline banner; a click lists them.
 */
export function PendingSyncIndicator() {
  const count = usePendingCount();
  const [open, setOpen] = useState(false);
  if (count === 0 && !open) return null;
  return (
    <>
      <button type="button" className="link-button pending-sync" data-testid="pending-sync" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <Plural value={count} one="# change waiting to sync" other="# changes waiting to sync" />
      </button>
      {open && <PendingSyncDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function PendingSyncDialog({ onClose }: { onClose(): void }) {
  const { t } = useLingui();
  const { user } = useSession();
  const count = usePendingCount();
  const [rows, setRows] = useState<PendingRow[] | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      const list = await pendingSync.list();
      const labelled = await label(list, user?.id ?? null);
      if (live) setRows(labelled);
    })();
    return () => {
      live = false;
    };
    // Read again when the count moves (a change was sent or another added).
  }, [count, user?.id, t]);
  const kindName = (collection: string) =>
    ({ item: t`Item`, value: t`Value`, folder: t`Folder`, attribute: t`Attribute`, comment: t`Comment`, view: t`View` })[collection] ?? collection;
  return (
    <Modal open onClose={onClose} title={t`Waiting to sync`} size="md">
      <p>
        <Trans>These changes are saved on this device. They are sent to the server as soon as it answers; nothing here is lost if you close the tab.</Trans>
      </p>
      {rows === null ? (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      ) : rows.length === 0 ? (
        <p>
          <Trans>Every change has reached the server.</Trans>
        </p>
      ) : (
        <ul className="pending-sync-list" data-testid="pending-sync-list">
          {rows.map((row) => (
            <li key={row.key}>
              <strong>{row.item ?? kindName(row.what)}</strong>
              {row.field && <span> · {row.field}</span>}
              <span className="muted"> · {kindName(row.what)}</span>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

/** Names each waiting change from the replica: the item's name, and for a value its attribute's. */
async function label(list: FailedRequestSummary[], userId: number | null): Promise<PendingRow[]> {
  const db = userId === null ? null : await loadReadonlyDb(userId).catch(() => null);
  const nameOf = async (collection: string, id: string): Promise<string | null> => {
    if (!db) return null;
    const row = (await db.records.get([collection, id]).catch(() => undefined)) as { name?: unknown } | undefined;
    return typeof row?.name === 'string' ? row.name : null;
  };
  return Promise.all(
    list.map(async (r) => {
      if (r.collection === 'value') {
        const [itemId, attributeId] = r.id.split('.');
        return { key: r.key, what: r.collection, item: await nameOf('item', itemId!), field: attributeId ? await nameOf('attribute', attributeId) : null, error: r.error };
      }
      return { key: r.key, what: r.collection, item: await nameOf(r.collection, r.id), field: null, error: r.error };
    }),
  );
}
