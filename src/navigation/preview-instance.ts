import { createPreviewMode } from './preview';

/** The app's preview mode (switched on by `?pretend`). */
export const previewMode = createPreviewMode();
