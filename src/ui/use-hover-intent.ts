import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Opens after the pointer (or keyboard focus) rests on a target for `showDelay`, closes
 * `hideDelay` after it leaves, so moving from the target onto its card does not close the card.
 */
export function useHoverIntent(showDelay: number, hideDelay: number) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const clear = () => clearTimeout(timer.current);
  useEffect(() => clear, []);

  const enter = useCallback(() => {
    clear();
    timer.current = setTimeout(() => setOpen(true), showDelay);
  }, [showDelay]);
  const leave = useCallback(() => {
    clear();
    timer.current = setTimeout(() => setOpen(false), hideDelay);
  }, [hideDelay]);
  const close = useCallback(() => {
    clear();
    setOpen(false);
  }, []);

  return { open, enter, leave, close };
}
