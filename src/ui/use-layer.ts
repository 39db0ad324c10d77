import { useEffect, useId, useRef, type RefObject } from 'react';
import { layers } from './layer-stack';
import { onRouteChange } from './navigation-events';

export interface LayerOptions {
  open: boolean;
  /** Called with the reason the layer should close. */
  onDismiss: (reason: 'escape' | 'outside' | 'route') => void;
  /** Elements that count as inside (the layer itself and e.g. its trigger). */
  inside: ReadonlyArray<RefObject<HTMLElement | null>>;
  /** Close on a pointer press outside (popups yes; modals handle their backdrop themselves). */
  outsidePress?: boolean;
  /** Close when the route changes. */
  routeChange?: boolean;
}

/**
 * Registers an open overlay on the layer stack and closes it on Escape, an outside press or a
 * route change, but only while it is the topmost layer (nested menus close one at a time).
 * Elements marked `data-ui-ignore-outside` (e.g. toasts) never count as outside.
 */
export function useLayer({ open, onDismiss, inside, outsidePress = true, routeChange = true }: LayerOptions): string {
  const id = useId();
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;
  const insideRef = useRef(inside);
  insideRef.current = inside;

  useEffect(() => {
    if (!open) return;
    layers.push(id);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && layers.isTop(id) && !event.defaultPrevented) {
        event.preventDefault();
        event.stopPropagation();
        dismiss.current('escape');
      }
    };
    const onPress = (event: PointerEvent) => {
      if (!outsidePress || !layers.isTop(id)) return;
      const target = event.target as Node | null;
      if (!target || !(target as Node).isConnected) return;
      if ((target as Element).closest?.('[data-ui-ignore-outside]')) return;
      if (insideRef.current.some((ref) => ref.current?.contains(target))) return;
      dismiss.current('outside');
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPress, true);
    const offRoute = routeChange ? onRouteChange(() => dismiss.current('route')) : () => {};
    return () => {
      layers.remove(id);
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPress, true);
      offRoute();
    };
  }, [open, id, outsidePress, routeChange]);

  return id;
}
