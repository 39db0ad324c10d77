/**
 * Local storage under a prefix, with an in-memory fallback when the browser refuses storage
 * (private windows, disabled cookies, quota). Values are JSON. `clear()` removes only our keys.
 */
export const STORAGE_PREFIX = 'cairn.';

export interface KeyValueStore {
  get<T>(key: string, fallback: T): T;
  set(key: string, value: unknown): void;
  remove(key: string): void;
  clear(): void;
  /** True when values survive a reload (real local storage), false on the memory fallback. */
  readonly persistent: boolean;
}

function usable(storage: Storage | null | undefined): storage is Storage {
  if (!storage) return false;
  try {
    const probe = STORAGE_PREFIX + '__probe';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

export function createStore(backing?: Storage | null, prefix = STORAGE_PREFIX): KeyValueStore {
  const memory = new Map<string, string>();
  const storage = usable(backing) ? backing : null;
  const read = (key: string): string | null => {
    if (storage) {
      try {
        return storage.getItem(prefix + key);
      } catch {
        /* fall through to memory */
      }
    }
    return memory.get(key) ?? null;
  };
  return {
    persistent: storage !== null,
    get<T>(key: string, fallback: T): T {
      const raw = read(key);
      if (raw === null) return fallback;
      try {
        return JSON.parse(raw) as T;
      } catch {
        return fallback;
      }
    },
    set(key, value) {
      const raw = JSON.stringify(value);
      memory.set(key, raw);
      if (storage) {
        try {
          storage.setItem(prefix + key, raw);
        } catch {
          /* quota: the memory copy still serves this tab */
        }
      }
    },
    remove(key) {
      memory.delete(key);
      try {
        storage?.removeItem(prefix + key);
      } catch {
        /* ignore */
      }
    },
    clear() {
      memory.clear();
      if (!storage) return;
      try {
        const ours: string[] = [];
        for (let i = 0; i < storage.length; i++) {
          const key = storage.key(i);
          if (key?.startsWith(prefix)) ours.push(key);
        }
        for (const key of ours) storage.removeItem(key);
      } catch {
        /* ignore */
      }
    },
  };
}

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The app's store. */
export const store = createStore(browserStorage());

/** Keys of shell.md §3 "Locally stored". */
export const StorageKeys = {
  sidebarVisible: 'sidebarVisible',
  helperVisible: 'helperVisible',
  appVars: 'appVars',
  themeMode: 'themeMode',
  supportChatHidden: 'supportChatHidden',
  pushToken: 'pushToken',
  confirmedTimezone: 'confirmedTimezone',
  updateRequired: 'updateRequired',
  /** Saved by the developer tools when an owner signs in as another user; logout then goes to /development. */
  ownerAccessToken: 'ownerAccessToken',
  locale: 'locale',
} as const;
