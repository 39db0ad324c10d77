import { useCallback, useState } from 'react';
import { useQueryFlag } from './use-query-flag';

export interface OpenStateProps {
  /** Keep the open state in the URL as `?{queryKey}=on` (Back closes, reload reopens). */
  queryKey?: string;
  /** Controlled open state (takes precedence over queryKey). */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/**
 * Open state from props, the URL, or local state, in that order. The setter resolves once the
 * change is in effect (for a URL flag, after the browser went back).
 */
export function useOpenState({ queryKey, open, onOpenChange }: OpenStateProps): [boolean, (open: boolean) => Promise<void>] {
  const [local, setLocal] = useState(false);
  const [flag, setFlag] = useQueryFlag(queryKey ?? '');
  const controlled = open !== undefined;
  const value = controlled ? open : queryKey ? flag : local;
  const set = useCallback(
    (next: boolean): Promise<void> => {
      onOpenChange?.(next);
      if (controlled) return Promise.resolve();
      if (queryKey) return setFlag(next);
      setLocal(next);
      return Promise.resolve();
    },
    [controlled, queryKey, setFlag, onOpenChange],
  );
  return [value, set];
}
