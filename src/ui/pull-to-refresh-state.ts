/**
 * Pull-to-refresh on touch (shell.md §4): ready once pulled past 50 % of a 250 px maximum;
 * releasing while ready reloads. Pure state transitions; the component only feeds touch positions.
 */
import { PULL_TO_REFRESH_MAX_PX, PULL_TO_REFRESH_READY_RATIO } from '../../schema/constants';

export type PullPhase = 'idle' | 'pulling' | 'ready' | 'refreshing';

export interface PullState {
  phase: PullPhase;
  startY: number;
  /** Rendered pull distance, 0 … max. */
  distance: number;
}

export const PULL_READY_PX = PULL_TO_REFRESH_MAX_PX * PULL_TO_REFRESH_READY_RATIO;

export const initialPull: PullState = { phase: 'idle', startY: 0, distance: 0 };

/** A touch starts a pull only when the content is scrolled to the top. */
export function pullStart(state: PullState, y: number, scrollTop: number): PullState {
  if (state.phase === 'refreshing' || scrollTop > 0) return state;
  return { phase: 'pulling', startY: y, distance: 0 };
}

export function pullMove(state: PullState, y: number, max = PULL_TO_REFRESH_MAX_PX): PullState {
  if (state.phase !== 'pulling' && state.phase !== 'ready') return state;
  const distance = Math.min(max, Math.max(0, y - state.startY));
  const ready = distance > max * PULL_TO_REFRESH_READY_RATIO;
  return { ...state, distance, phase: ready ? 'ready' : 'pulling' };
}

/** Release: `refresh` is true when the caller should reload now. */
export function pullEnd(state: PullState): { state: PullState; refresh: boolean } {
  if (state.phase === 'ready') return { state: { ...state, phase: 'refreshing' }, refresh: true };
  if (state.phase === 'refreshing') return { state, refresh: false };
  return { state: initialPull, refresh: false };
}

/** After the reload callback settles (when it does not navigate away). */
export function pullDone(): PullState {
  return initialPull;
}

/** 0 … 1 progress towards "ready", for the indicator. */
export function pullProgress(state: PullState, max = PULL_TO_REFRESH_MAX_PX): number {
  return Math.min(1, state.distance / (max * PULL_TO_REFRESH_READY_RATIO));
}
