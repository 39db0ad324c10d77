/** The message of a screen whose code could not be fetched (see router.tsx). */
export const SCREEN_LOAD_ERROR = 'The screen could not be loaded';
