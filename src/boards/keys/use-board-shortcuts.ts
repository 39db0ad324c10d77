import { useEffect, useRef } from 'react';

/** True when a key press belongs to something the user types into (never a shortcut then). */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName !== 'INPUT') return false;
  const type = (el as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
}

/**
 * The board's one-key shortcuts (issue #17 part 3): `c` starts a new item, `/` goes to the search
 * field. Never while typing, never with Ctrl/Cmd/Alt, never while a dialog is open.
 */
export function useBoardShortcuts(handlers: { create?(): void; search(): void }): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      if (event.key === 'c' || event.key === 'C') {
        if (!latest.current.create) return;
        event.preventDefault();
        latest.current.create();
      } else if (event.key === '/') {
        event.preventDefault();
        latest.current.search();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
