import { useRef, useState, useSyncExternalStore, type PointerEvent as ReactPointerEvent } from 'react';
import { createPortal } from 'react-dom';
import { useLingui } from '@lingui/react/macro';
import { CloseIcon } from './icons';
import { toast as defaultStore, type Toast, type ToastStore } from './toast-store';
import { moveSwipe, shouldDismiss, startSwipe, swipeOpacity, type SwipeState } from './toast-swipe';

/**
 * Renders the toast store in a polite live region at the bottom of the screen. Mount once
 * (UiHost does). Toasts pause while hovered or focused and can be swiped away (beyond 80 px).
 */
export function Toaster({ store = defaultStore }: { store?: ToastStore }) {
  const toasts = useSyncExternalStore(store.subscribe, store.getToasts, store.getToasts);
  const { t } = useLingui();
  return createPortal(
    <section className="ui-toaster" aria-live="polite" aria-label={t`Notifications`} data-ui-ignore-outside>
      {toasts.map((item) => (
        <ToastView key={item.id} item={item} store={store} />
      ))}
    </section>,
    document.body,
  );
}

function ToastView({ item, store }: { item: Toast; store: ToastStore }) {
  const { t } = useLingui();
  const [swipe, setSwipe] = useState<SwipeState | null>(null);
  const pointer = useRef<number | null>(null);
  const swipeStartedAt = useRef(0);

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest('button')) return; // buttons keep their click
    pointer.current = event.pointerId;
    event.currentTarget.setPointerCapture(event.pointerId);
    setSwipe(startSwipe(event.clientX, event.clientY));
    swipeStartedAt.current = event.timeStamp;
    store.pause(item.id);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (pointer.current !== event.pointerId || !swipe) return;
    setSwipe(moveSwipe(swipe, event.clientX, event.clientY));
  };
  const onPointerEnd = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (pointer.current !== event.pointerId) return;
    pointer.current = null;
    const final = swipe ? moveSwipe(swipe, event.clientX, event.clientY) : null;
    setSwipe(null);
    if (final && shouldDismiss(final, undefined, event.timeStamp - swipeStartedAt.current)) store.dismiss(item.id);
    else store.resume(item.id);
  };

  const offset = swipe && !swipe.cancelled ? swipe.offset : 0;
  // The region is already polite; errors interrupt.
  const role = item.kind === 'error' ? 'alert' : undefined;
  return (
    <div
      className={`ui-toast ui-toast--${item.kind} is-${item.phase}${swipe ? ' is-dragging' : ''}`}
      role={role}
      style={offset ? { transform: `translateX(${offset}px)`, opacity: swipeOpacity(offset) } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onMouseEnter={() => store.pause(item.id)}
      onMouseLeave={() => pointer.current === null && store.resume(item.id)}
      onFocus={() => store.pause(item.id)}
      onBlur={() => store.resume(item.id)}
      data-toast-id={item.id}
    >
      <span className="ui-toast__message">{item.message}</span>
      {item.action ? (
        <button
          type="button"
          className="ui-toast__action"
          onClick={() => {
            item.action?.run();
            store.dismiss(item.id);
          }}
        >
          {item.action.label}
        </button>
      ) : null}
      <button type="button" className="ui-toast__close" aria-label={t`Dismiss`} onClick={() => store.dismiss(item.id)}>
        <CloseIcon size={16} />
      </button>
    </div>
  );
}
