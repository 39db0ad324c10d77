import { Suspense, useEffect, useState } from 'react';
import { lazyRetry } from '../ui/lazy-retry';

/**
 * The command palette's eager part (issue #17 part 3): a key listener and two lazy chunks. Ctrl/Cmd+K
 * opens the palette (cmdk, loaded on first use), `?` the shortcut sheet; neither fires while typing.
 * Kept tiny on purpose: the app shell's JavaScript budget is nearly spent.
 */
const CommandPalette = lazyRetry(() => import('./CommandPalette'));
const ShortcutSheet = lazyRetry(() => import('./ShortcutSheet'));

export const OPEN_PALETTE_EVENT = 'cairn:palette';
/** When the key was pressed, so the palette can say how long it took to open. */
export let openRequestedAt = 0;

const typing = (el: EventTarget | null) => {
  const node = el as HTMLElement | null;
  if (!node?.tagName) return false;
  const type = (node as HTMLInputElement).type;
  return node.isContentEditable || node.tagName === 'TEXTAREA' || node.tagName === 'SELECT' || (node.tagName === 'INPUT' && !['checkbox', 'radio', 'button'].includes(type));
};

export function PaletteHost() {
  const [open, setOpen] = useState<'palette' | 'shortcuts' | null>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        openRequestedAt = performance.now();
        setOpen((was) => (was === 'palette' ? null : 'palette'));
      } else if (event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey && !typing(event.target) && !document.querySelector('[aria-modal="true"]')) {
        event.preventDefault();
        setOpen('shortcuts');
      }
    };
    const onOpen = (event: Event) => {
      openRequestedAt = performance.now();
      setOpen(((event as CustomEvent<string>).detail as 'shortcuts') ?? 'palette');
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener(OPEN_PALETTE_EVENT, onOpen);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener(OPEN_PALETTE_EVENT, onOpen);
    };
  }, []);
  if (!open) return null;
  const close = () => setOpen(null);
  return <Suspense fallback={null}>{open === 'palette' ? <CommandPalette onClose={close} onShortcuts={() => setOpen('shortcuts')} /> : <ShortcutSheet onClose={close} />}</Suspense>;
}
