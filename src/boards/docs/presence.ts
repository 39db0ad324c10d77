import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import { fromBase64, toBase64 } from './doc-body';

/**
 * Who else is in a document, and where their cursor is (decision 0218): a Yjs awareness per open
 * document, carried as `client-doc-awareness` events of the board's presence channel. Nothing of
 * it is stored: the server relays the event to the channel's other subscribers (VIEW_BOARD, as
 * for the board) and forgets it; a state not renewed within 15 s is gone (decision 0326).
 *
 * Names are never taken from the sender: the presence channel stamps each event with the user id
 * the server signed the subscription for, and the label is that member's name. Pure of React and
 * of the network (`PresenceTransport`), so a unit test drives two of them against each other.
 */

export const AWARENESS_EVENT = 'client-doc-awareness';
/** At most one event per this many ms per tab (the server allows 10 client events a second). */
export const AWARENESS_SEND_MS = 250;
/**
 * Liveness of a tab in a document, whatever happens to its page: a tab renews its state this
 * often, and a state not heard of for AWARENESS_STALE_MS is dropped (checked every
 * AWARENESS_CHECK_MS). A tab that leaves properly (or a member's last connection to the board)
 * goes at once; one that closes without a word (a killed browser, a closed context, another tab
 * of the same member still on the board) goes within STALE + CHECK ms. y-protocols' own 30 s
 * timeout is too slow for a caret that stays where nobody is.
 */
export const AWARENESS_RENEW_MS = 5_000;
export const AWARENESS_STALE_MS = 15_000;
export const AWARENESS_CHECK_MS = 1_000;

export interface AwarenessMessage {
  item: string;
  client: number;
  update: string;
}

export interface PresenceTransport {
  send(message: AwarenessMessage): void;
  /** Messages of others, with the user id the server attached (null: not attested, ignored). */
  onMessage(listener: (message: AwarenessMessage, userId: string | null) => void): () => void;
  /** A user's last connection left the channel. */
  onMemberRemoved(listener: (userId: string) => void): () => void;
}

export interface RemoteEditor {
  clientId: number;
  userId: string;
  name: string;
  color: string;
}

const COLORS = ['#2563eb', '#db2777', '#059669', '#d97706', '#7c3aed', '#0891b2', '#dc2626', '#4d7c0f'];
export const colorOf = (userId: string): string => COLORS[[...userId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % COLORS.length]!;

export class DocPresence {
  readonly awareness: Awareness;
  /** Awareness client id → the attested user id of whoever sent it. */
  private readonly owners = new Map<number, string>();
  private readonly offs: (() => void)[] = [];
  /** Awareness client id → when a message of it was last received (this.now()). */
  private readonly heard = new Map<number, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly ticker: ReturnType<typeof setInterval>;
  private lastSent = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    doc: Y.Doc,
    private readonly itemId: string,
    private readonly transport: PresenceTransport,
    private readonly nameOf: (userId: string) => string,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.awareness = new Awareness(doc);
    this.awareness.on('update', this.onLocalUpdate);
    this.awareness.on('change', this.notify);
    // Announce ourselves (a state at clock 0, the one the constructor makes, is ignored by peers).
    this.awareness.setLocalState({ here: true });
    this.offs.push(
      transport.onMessage((message, userId) => this.receive(message, userId)),
      transport.onMemberRemoved((userId) => this.drop([...this.owners].filter(([, owner]) => owner === userId).map(([client]) => client))),
    );
    this.ticker = setInterval(this.tick, AWARENESS_CHECK_MS);
  }

  /** The label and colour the caret of `clientId` is drawn with (the attested member's name). */
  userOf(clientId: number): { name: string; color: string } {
    const owner = this.owners.get(clientId);
    return owner ? { name: this.nameOf(owner), color: colorOf(owner) } : { name: '?', color: '#6b7280' };
  }

  /** The others in this document now (one entry per tab), for the "also here" list. */
  remote(): RemoteEditor[] {
    const out: RemoteEditor[] = [];
    for (const clientId of this.awareness.getStates().keys()) {
      const owner = this.owners.get(clientId);
      if (clientId === this.awareness.clientID || !owner) continue;
      out.push({ clientId, userId: owner, ...this.userOf(clientId) });
    }
    return out;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Leaving (the document closes, or the page is hidden for good): others drop our caret at once
   * rather than after the stale timeout. `rejoin` undoes it (a page back from the back/forward cache).
   */
  leave(): void {
    if (!this.awareness.getLocalState()) return;
    removeAwarenessStates(this.awareness, [this.awareness.clientID], 'leave');
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.flush();
  }

  rejoin(): void {
    if (!this.awareness.getLocalState()) this.awareness.setLocalState({ here: true });
  }

  destroy(): void {
    this.leave();
    clearInterval(this.ticker);
    for (const off of this.offs) off();
    this.awareness.off('update', this.onLocalUpdate);
    this.awareness.off('change', this.notify);
    this.awareness.destroy();
    this.listeners.clear();
  }

  private receive(message: AwarenessMessage, userId: string | null): void {
    if (!userId || message.item !== this.itemId || !Number.isInteger(message.client) || message.client === this.awareness.clientID) return;
    const isNew = !this.owners.has(message.client);
    this.owners.set(message.client, userId);
    this.heard.set(message.client, this.now());
    try {
      applyAwarenessUpdate(this.awareness, fromBase64(message.update), 'remote');
    } catch {
      // A broken event must not take the editor down.
      return;
    }
    // Only the sender's own client id may be set by its event: anything else it carried goes.
    const foreign = [...this.awareness.getStates().keys()].filter((c) => c !== this.awareness.clientID && !this.owners.has(c));
    if (foreign.length) removeAwarenessStates(this.awareness, foreign, 'remote');
    // Someone new: they need our caret now, not at our next move (only then: no ping-pong).
    if (isNew && this.awareness.getStates().has(message.client) && this.awareness.getLocalState()) this.schedule();
  }

  /** Forgets these remote clients (their next message makes them new again, and answered). */
  private drop(clients: number[]): void {
    for (const client of clients) {
      this.owners.delete(client);
      this.heard.delete(client);
    }
    const here = clients.filter((client) => this.awareness.getStates().has(client));
    if (here.length) removeAwarenessStates(this.awareness, here, 'remote');
  }

  /** Renews our state, and drops the states of tabs not heard of for AWARENESS_STALE_MS. */
  private readonly tick = () => {
    const now = this.now();
    const local = this.awareness.getLocalState();
    // setLocalState raises the clock: a state sent again at the same clock would not count as news.
    if (local && now - this.lastSent >= AWARENESS_RENEW_MS) this.awareness.setLocalState(local);
    const stale = [...this.heard].filter(([, at]) => now - at >= AWARENESS_STALE_MS).map(([client]) => client);
    if (stale.length) this.drop(stale);
  };

  private readonly notify = () => {
    for (const listener of [...this.listeners]) listener();
  };

  private readonly onLocalUpdate = (_changes: unknown, origin: unknown) => {
    if (origin === 'remote') return;
    this.schedule();
  };

  private schedule(): void {
    if (this.timer !== null) return;
    const wait = Math.max(0, this.lastSent + AWARENESS_SEND_MS - this.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  private flush(): void {
    this.lastSent = this.now();
    const client = this.awareness.clientID;
    this.transport.send({ item: this.itemId, client, update: toBase64(encodeAwarenessUpdate(this.awareness, [client])) });
  }
}

/**
 * A transport whose connection is loaded later (the realtime library is its own chunk): what is
 * sent before it is there keeps only the newest message; listeners are attached when it comes.
 */
export class DeferredTransport implements PresenceTransport {
  private link: (PresenceTransport & { close(): void }) | null = null;
  private closed = false;
  private last: AwarenessMessage | null = null;
  private readonly messageListeners = new Set<(message: AwarenessMessage, userId: string | null) => void>();
  private readonly leaveListeners = new Set<(userId: string) => void>();

  constructor(load: () => Promise<(PresenceTransport & { close(): void }) | null>) {
    void load().then(
      (link) => {
        if (!link) return;
        if (this.closed) return link.close();
        this.link = link;
        link.onMessage((message, userId) => this.messageListeners.forEach((l) => l(message, userId)));
        link.onMemberRemoved((userId) => this.leaveListeners.forEach((l) => l(userId)));
        if (this.last) link.send(this.last);
        this.last = null;
      },
      () => undefined,
    );
  }

  send(message: AwarenessMessage): void {
    if (this.link) this.link.send(message);
    else this.last = message;
  }

  onMessage(listener: (message: AwarenessMessage, userId: string | null) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onMemberRemoved(listener: (userId: string) => void): () => void {
    this.leaveListeners.add(listener);
    return () => this.leaveListeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.link?.close();
    this.link = null;
  }
}
