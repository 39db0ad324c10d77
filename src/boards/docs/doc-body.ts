import * as Y from 'yjs';

/**
 * One document body in the tab (decision 0135): a Y.Doc fed with the item's `doc_update` records
 * from the replica, and the edits typed here handed out in small merged batches. Pure of React and
 * of the backend: `send` is how a batch leaves (a createRecords action of the worker), so a unit
 * test can drive it.
 */

/** Edits typed within this long go out as one update record. */
export const SEND_DELAY_MS = 400;

/** An origin marking updates that came from the replica (they are not sent back). */
const FROM_REPLICA = Symbol('replica');

export const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

export const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export interface UpdateRecordLike {
  id: string;
  update: string;
}

export class DocBody {
  readonly doc = new Y.Doc();
  private readonly applied = new Set<string>();
  private outgoing: Uint8Array[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly send: (update: string) => Promise<void>) {
    this.doc.on('update', this.onUpdate);
  }

  /** Applies the replica's records not applied yet (Yjs ignores what it already holds). */
  receive(records: readonly UpdateRecordLike[]): void {
    const fresh = records.filter((r) => !this.applied.has(r.id));
    if (fresh.length === 0) return;
    Y.transact(
      this.doc,
      () => {
        for (const record of fresh) {
          this.applied.add(record.id);
          try {
            Y.applyUpdate(this.doc, fromBase64(record.update), FROM_REPLICA);
          } catch {
            // A broken record (the server checks every update) must not take the editor down.
          }
        }
      },
      FROM_REPLICA,
    );
  }

  /** Sends what is waiting now (leaving the document, closing the tab). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.outgoing.length === 0) return;
    const update = toBase64(Y.mergeUpdates(this.outgoing));
    this.outgoing = [];
    void this.send(update).catch(() => undefined);
  }

  destroy(): void {
    this.flush();
    this.doc.off('update', this.onUpdate);
    this.doc.destroy();
  }

  private readonly onUpdate = (update: Uint8Array, origin: unknown) => {
    if (origin === FROM_REPLICA) return;
    this.outgoing.push(update);
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), SEND_DELAY_MS);
  };
}
