import { useCallback, useState } from 'react';
import { store } from './local-store';

/** A remembered value (sidebar and helper visibility, theme mode). */
export function useStored<T>(key: string, fallback: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => store.get(key, fallback));
  const set = useCallback(
    (next: T) => {
      store.set(key, next);
      setValue(next);
    },
    [key],
  );
  return [value, set];
}
