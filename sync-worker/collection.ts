/**
 * One collection at one index address (a collection of one board): its first load (init) and
 * its refreshes. Refresh is allowed only after initialisation and needs an index address
 * (shell.md §4, §8); a realtime `refresh` event reloads it.
 *
 * A load streams (stream.ts): it answers once its first page is stored, and `complete` settles
 * when every page is. A load that fails half-way leaves the collection uninitialised, so the next
 * open loads it again.
 */
import { Messages } from '../schema/messages';
import { indexAddress, type CollectionDefinition } from '../schema/collections';
import type { SyncRecord } from './types';

export interface IndexAnswer {
  /** The first page (for a server that does not page: everything). */
  data: SyncRecord[];
  cursor: number | null;
  /** True when the first page was the whole index. */
  done: boolean;
  /** Every page stored (rejects when a later page failed). */
  complete: Promise<void>;
}

/** Loads an index address and stores what it lists; answers the server's cursor. */
export type IndexLoader = (collection: string, boardId: string, address: string) => Promise<IndexAnswer>;

export class Collection {
  private initializedFlag = false;
  private loading: Promise<IndexAnswer> | null = null;

  constructor(
    readonly def: CollectionDefinition,
    readonly teamId: number,
    readonly boardId: string | null,
    private readonly loader: IndexLoader,
  ) {}

  get name(): string {
    return this.def.name;
  }

  get initialized(): boolean {
    return this.initializedFlag;
  }

  /** The GET address of this collection's index, or null when it has none (no board). */
  get address(): string | null {
    return this.boardId === null ? null : indexAddress(this.teamId, this.def, this.boardId);
  }

  /** First load: answers once the first page is stored. Later calls share the running load. */
  async init(): Promise<IndexAnswer> {
    const answer = await this.load();
    this.initializedFlag = true;
    answer.complete.catch(() => {
      this.initializedFlag = false;
    });
    return answer;
  }

  /** For a collection filled another way (events only): it counts as initialised without a load. */
  markInitialized(): void {
    this.initializedFlag = true;
  }

  /**
   * The server can no longer say what changed here since our cursor (its change log was compacted
   * past it, decision 0351): the next open loads the index again, like a cold open.
   */
  markStale(): void {
    this.initializedFlag = false;
  }

  /** Reloads from the index address, every page; only after init, and only with an address. */
  async refresh(): Promise<IndexAnswer> {
    if (!this.initializedFlag) throw new Error(Messages.refreshNotInitialized);
    const answer = await this.load();
    await answer.complete;
    return answer;
  }

  private load(): Promise<IndexAnswer> {
    const address = this.address;
    if (address === null || this.boardId === null) return Promise.reject(new Error(Messages.refreshWithoutIndex));
    if (!this.loading) {
      // Shared until the last page is stored: a refresh asked meanwhile joins the stream.
      const run = this.loader(this.def.name, this.boardId, address);
      this.loading = run;
      const clear = () => {
        if (this.loading === run) this.loading = null;
      };
      run.then((answer) => answer.complete).then(clear, clear);
    }
    return this.loading;
  }
}
