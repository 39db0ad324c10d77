import { useEffect } from 'react';
import { useLingui } from '@lingui/react/macro';
import { toast } from '../../ui/toast-store';
import type { BoardActions } from '../store/actions';

/** True when the key press belongs to a text field (its own undo applies there). */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT';
}

/** Ctrl+Z undoes the user's last board edit, Ctrl+Shift+Z (or Ctrl+Y) redoes it. */
export function useUndoKeys(actions: BoardActions): void {
  const { t } = useLingui();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || isTyping(event.target)) return;
      const key = event.key.toLowerCase();
      const redo = (key === 'z' && event.shiftKey) || key === 'y';
      const undo = key === 'z' && !event.shiftKey;
      if (!undo && !redo) return;
      event.preventDefault();
      void (redo ? actions.redo() : actions.undo()).then((label) => {
        if (label) toast.show(redo ? t`Redone` : t`Undone`, { kind: 'info', id: 'board-undo' });
        else toast.show(redo ? t`Nothing to redo` : t`Nothing to undo`, { kind: 'info', id: 'board-undo' });
      });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions, t]);
}
