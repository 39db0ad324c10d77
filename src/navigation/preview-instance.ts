import { createPreviewMode } from './preview';

/** The app's preview mode (switched on by `?pretend`). */
export const previewMode = createPreviewMode();

// The page's own address counts at once, before the router's first navigation ends: the board's
// backend is chosen on first render (decision 0280), and a preview tab must never start on the worker.
if (typeof window !== 'undefined' && window.location) previewMode.observe(Object.fromEntries(new URLSearchParams(window.location.search)));
