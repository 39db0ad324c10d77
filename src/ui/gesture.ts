import { GESTURE_PRESS_MS, GESTURE_SWIPE_VELOCITY, GESTURE_TAP_MS, TOUCH_TAP_TOLERANCE_PX } from '../../schema/constants';

/**
 * What a finished touch was, by the spec's gesture defaults (shell.md §9): within the 20 px tap
 * tolerance, a tap up to 250 ms and a press from 251 ms; beyond it, a swipe when it travelled at
 * 0.3 px/ms or faster, else a pan (a slow drag). Pure: callers pass the travel and the time.
 */
export type Gesture = 'tap' | 'press' | 'swipe' | 'pan';

export function classifyGesture(travel: { dx: number; dy: number; ms: number }): Gesture {
  const distance = Math.hypot(travel.dx, travel.dy);
  const ms = Math.max(0, travel.ms);
  if (distance <= TOUCH_TAP_TOLERANCE_PX) return ms >= GESTURE_PRESS_MS ? 'press' : ms <= GESTURE_TAP_MS ? 'tap' : 'press';
  const velocity = ms === 0 ? Infinity : distance / ms;
  return velocity >= GESTURE_SWIPE_VELOCITY ? 'swipe' : 'pan';
}
