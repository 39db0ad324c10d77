/**
 * `confirm({message?})` → Promise<boolean>, shown one at a time by <ConfirmHost/>. Requests that
 * arrive while one is open wait their turn; none is dropped.
 */
export interface ConfirmOptions {
  /** Defaults to "Are you sure?" (translated by the dialog). */
  message?: string;
  title?: string;
  /** Defaults to "Yes". */
  confirmLabel?: string;
  /** Defaults to "Cancel". */
  cancelLabel?: string;
  /** Styles the Yes button as destructive. */
  danger?: boolean;
}

export interface ConfirmRequest extends ConfirmOptions {
  id: number;
  resolve: (answer: boolean) => void;
}

export interface ConfirmStore {
  confirm(options?: ConfirmOptions): Promise<boolean>;
  /** The request on screen, if any. */
  current(): ConfirmRequest | null;
  answer(id: number, value: boolean): void;
  subscribe(listener: () => void): () => void;
}

export function createConfirmStore(): ConfirmStore {
  const queue: ConfirmRequest[] = [];
  const listeners = new Set<() => void>();
  let counter = 0;
  const emit = () => listeners.forEach((listener) => listener());
  return {
    confirm(options = {}) {
      return new Promise<boolean>((resolve) => {
        queue.push({ ...options, id: ++counter, resolve });
        emit();
      });
    },
    current: () => queue[0] ?? null,
    answer(id, value) {
      const at = queue.findIndex((request) => request.id === id);
      if (at < 0) return;
      const [request] = queue.splice(at, 1);
      request.resolve(value);
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const confirmStore = createConfirmStore();

/** Asks the user; resolves true for Yes, false for Cancel, Escape or a click outside. */
export function confirm(options?: ConfirmOptions): Promise<boolean> {
  return confirmStore.confirm(options);
}
