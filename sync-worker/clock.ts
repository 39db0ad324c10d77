/**
 * Time and chance, injected: every delay of the engine (420 s delayed sync, 10 s locks, 500 ms
 * debounce, disconnect grace) goes through a Clock so tests move time instead of waiting.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A random source in [0, 1). */
export type Random = () => number;

/**
 * A clock tests drive by hand: `advance(ms)` runs every timer that falls due, in order.
 * `advanceAsync` lets promises settle between timers (for code that awaits inside callbacks).
 */
export class ManualClock implements Clock {
  private time: number;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private nextId = 1;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  pending(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.nextDue(end);
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].fn();
    }
    this.time = end;
  }

  async advanceAsync(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      const due = this.nextDue(end);
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].fn();
    }
    this.time = end;
    await settle();
  }

  private nextDue(end: number): [number, { at: number; fn: () => void }] | undefined {
    let best: [number, { at: number; fn: () => void }] | undefined;
    for (const entry of this.timers) {
      if (entry[1].at <= end && (!best || entry[1].at < best[1].at)) best = entry;
    }
    return best;
  }
}

/** Lets queued promise callbacks (and IndexedDB events of fake-indexeddb) run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
