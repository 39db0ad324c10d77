/**
 * Swipe-to-dismiss for toasts (shell.md §4: a swipe beyond 80 px dismisses). Pure: the component
 * feeds pointer positions and renders the returned offset.
 */
import { TOAST_SWIPE_THRESHOLD_PX } from '../../schema/constants';
import { classifyGesture } from './gesture';

export interface SwipeState {
  startX: number;
  startY: number;
  /** Horizontal offset to render while dragging. */
  offset: number;
  /** Vertical drag (a scroll attempt) cancels the swipe. */
  cancelled: boolean;
}

export function startSwipe(x: number, y: number): SwipeState {
  return { startX: x, startY: y, offset: 0, cancelled: false };
}

export function moveSwipe(state: SwipeState, x: number, y: number): SwipeState {
  if (state.cancelled) return state;
  const dx = x - state.startX;
  const dy = y - state.startY;
  // Mostly vertical before any real horizontal travel: the user is scrolling, not swiping.
  if (Math.abs(dy) > Math.abs(dx) && Math.abs(dy) > 10 && Math.abs(state.offset) < 10) {
    return { ...state, offset: 0, cancelled: true };
  }
  return { ...state, offset: dx };
}

/**
 * Released beyond the threshold (either direction) dismisses, and so does a quick flick shorter
 * than it (a swipe by the spec's gesture velocity, 0.3 px/ms) when the time it took is given;
 * otherwise the toast springs back.
 */
export function shouldDismiss(state: SwipeState, threshold = TOAST_SWIPE_THRESHOLD_PX, elapsedMs?: number): boolean {
  if (state.cancelled) return false;
  if (Math.abs(state.offset) > threshold) return true;
  return elapsedMs !== undefined && classifyGesture({ dx: state.offset, dy: 0, ms: elapsedMs }) === 'swipe';
}

/** Fades as it nears the threshold, so the user sees the release point coming. */
export function swipeOpacity(offset: number, threshold = TOAST_SWIPE_THRESHOLD_PX): number {
  return Math.max(0.2, 1 - Math.abs(offset) / (threshold * 2));
}
