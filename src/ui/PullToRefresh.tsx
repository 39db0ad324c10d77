import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { RefreshIcon } from './icons';
import { initialPull, pullEnd, pullMove, pullProgress, pullStart, type PullState } from './pull-to-refresh-state';

export interface PullToRefreshProps {
  children: ReactNode;
  /** Runs on release once ready; defaults to reloading the page. May return a promise. */
  onRefresh?: () => unknown;
  disabled?: boolean;
  className?: string;
}

/**
 * How far the content under the finger is scrolled: the largest scrollTop from the touched
 * element up to the page. A pull only starts when everything is at the top, so pulling down inside
 * a scrolled list scrolls the list.
 */
function scrolledAbove(target: EventTarget | null): number {
  let max = document.scrollingElement?.scrollTop ?? 0;
  for (let el = target instanceof Element ? target : null; el; el = el.parentElement) max = Math.max(max, el.scrollTop);
  return max;
}

/**
 * Touch pull-to-refresh around a scrolling area (shell.md §4): pull down from the top, past half of
 * 250 px it is ready, release to reload. Mouse and pen are ignored. The wrapper may be the scroll
 * container or sit in a scrolling page; it turns off the browser's own overscroll refresh.
 */
export function PullToRefresh({ children, onRefresh = () => window.location.reload(), disabled = false, className }: PullToRefreshProps) {
  const { t } = useLingui();
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<PullState>(initialPull);
  const stateRef = useRef(state);
  stateRef.current = state;
  const refresh = useRef(onRefresh);
  refresh.current = onRefresh;

  useEffect(() => {
    const el = container.current;
    if (!el || disabled) return;
    const set = (next: PullState) => {
      stateRef.current = next;
      setState(next);
    };
    // A touch's move and end events go to the element it started on, even once React has replaced
    // that element (the page's content re-rendered under the finger); removed from the page, it no
    // longer passes them up to this wrapper, and the pull stayed "pulling" for good (e2e
    // spec-words-shell). So they are heard on that element itself, for the one touch.
    let touched: EventTarget | null = null;
    const release = () => {
      touched?.removeEventListener('touchmove', onMove as EventListener);
      touched?.removeEventListener('touchend', onEnd);
      touched?.removeEventListener('touchcancel', onEnd);
      touched = null;
    };
    const onStart = (event: TouchEvent) => {
      if (event.touches.length !== 1) return;
      release();
      touched = event.target;
      touched?.addEventListener('touchmove', onMove as EventListener, { passive: true });
      touched?.addEventListener('touchend', onEnd);
      touched?.addEventListener('touchcancel', onEnd);
      set(pullStart(stateRef.current, event.touches[0].clientY, scrolledAbove(event.target)));
    };
    const onMove = (event: TouchEvent) => set(pullMove(stateRef.current, event.touches[0].clientY));
    function onEnd() {
      release();
      const { state: next, refresh: shouldRefresh } = pullEnd(stateRef.current);
      set(next);
      if (!shouldRefresh) return;
      Promise.resolve()
        .then(() => refresh.current())
        .finally(() => set(initialPull));
    }
    el.addEventListener('touchstart', onStart, { passive: true });
    return () => {
      el.removeEventListener('touchstart', onStart);
      release();
    };
  }, [disabled]);

  const visible = state.phase !== 'idle';
  const shift = state.phase === 'refreshing' ? 56 : state.distance / 2;
  const text =
    state.phase === 'ready' ? t`Release to refresh` : state.phase === 'refreshing' ? t`Refreshing…` : t`Pull to refresh`;

  return (
    <div ref={container} className={['ui-ptr', className].filter(Boolean).join(' ')} data-pull-phase={state.phase}>
      <div className="ui-ptr__indicator" aria-hidden={!visible} style={{ transform: `translateY(${shift - 48}px)`, opacity: visible ? 1 : 0 }}>
        <span className={`ui-ptr__icon${state.phase === 'refreshing' ? ' is-spinning' : ''}`} style={{ transform: `rotate(${pullProgress(state) * 270}deg)` }}>
          <RefreshIcon size={20} />
        </span>
        <span className="visually-hidden" role="status">
          {visible ? text : ''}
        </span>
      </div>
      <div className="ui-ptr__content" style={visible ? { transform: `translateY(${shift}px)` } : undefined}>
        {children}
      </div>
    </div>
  );
}
