import { useSyncExternalStore } from 'react';
import { DESKTOP_BREAKPOINT_PX } from '../../schema/constants';

const query = `(min-width: ${DESKTOP_BREAKPOINT_PX}px)`;

/** Desktop layout at 780 px and wider, mobile below (shell.md §1). */
export function useIsDesktop(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = matchMedia(query);
      list.addEventListener('change', listener);
      return () => list.removeEventListener('change', listener);
    },
    () => matchMedia(query).matches,
    () => true,
  );
}
