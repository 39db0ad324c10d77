/** Every timing and limit of the spec, named once (shell.md §9, workspace.md §9). Times in ms. */
export const CLIENT_VERSION = '34.3.6';
export const DESKTOP_REQUIRED_VERSION = '1.2.2';

export const AUTH_BATCH_MS = 2_000;
export const FAILED_REQUEST_LOCK_MS = 10_000;
export const VERSION_CHECK_INTERVAL_MS = 60 * 60 * 1000;
export const DELAYED_SYNC_MAX_MS = 420_000;
export const FORCED_RELOAD_MIN_MS = 60_000;
export const FORCED_RELOAD_MAX_MS = 160_000;
export const SW_UPDATE_WINDOW_MS = 60_000;
export const TOKEN_SAFETY_MARGIN_MS = 5_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const FAILED_REBROADCAST_DEBOUNCE_MS = 500;

export const STATUS_POLL_DELAY_MS = 10_000;
export const STATUS_ACTIVITY_THROTTLE_MS = 45_000;
export const STATUS_BANNER_HEIGHT_PX = 42;

export const TOAST_DEFAULT_MS = 3_000;
export const TOAST_CONNECTED_MS = 5_000;
export const TOAST_SYNCING_MS = 5_000;
export const TOAST_ERROR_MS = 5_000;
export const TOAST_OFFLINE_MS = 10_000;
export const TOAST_DESKTOP_UPDATE_MS = 15_000;
export const TOAST_TEST_MODE_SCALE = 0.2;
export const TOAST_ANIMATION_MS = 300;
export const TOAST_SWIPE_THRESHOLD_PX = 80;

export const PULL_TO_REFRESH_MAX_PX = 250;
export const PULL_TO_REFRESH_READY_RATIO = 0.5;
export const DRAG_DELAY_MS = 200;
export const DRAG_THRESHOLD = 2;
export const DRAG_SCROLL_SPEED = 20;
export const SCROLL_EDGE_PX = 20;
export const TOUCH_TAP_TOLERANCE_PX = 20;
export const GESTURE_TAP_MS = 250;
export const GESTURE_PRESS_MS = 251;
export const GESTURE_SWIPE_VELOCITY = 0.3;

export const TOOLTIP_DISTANCE = 5;
export const TOOLTIP_DISPOSE_MS = 150;
export const TOOLTIP_SHOW_DELAY_MS = 200;
export const MENU_HIDE_DELAY_MS = 400;
/** The custom-tooltip theme (rich content): shows at once, hides 200 ms after the pointer leaves. */
export const CUSTOM_TOOLTIP_SHOW_MS = 0;
export const CUSTOM_TOOLTIP_HIDE_MS = 200;

export const SW_CACHE_NAME = 'runtime-api-v1';
export const SW_CHANNEL = 'SW_CHANNEL';
export const DESKTOP_BREAKPOINT_PX = 780;

export const REAUTH_WINDOW_MS = 30 * 60 * 1000;
export const TRIAL_DAYS = 14;
export const TRIAL_EXTENSION_DAYS = 30;
export const AUTOMATION_WARNING_RATE = 0.8;
export const AUTOMATION_EXCEEDED_RATE = 1;
export const STORAGE_WARNING_RATE = 0.8;
export const ATTRIBUTE_SELECTION_MIN = 1;
export const ATTRIBUTE_SELECTION_MAX = 7;
export const LABEL_DEFAULT_TEXT_COLOR = '#4C4E69';
export const PASSWORD_MIN_LENGTH = 8;
/** Not given by the spec: we chose 5 MB for profile and workspace photos (docs/decisions). */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const HOOK_EVENT_TYPES = ['item.created', 'item.updated', 'value.created', 'value.updated', 'comment.created', 'comment.updated'] as const;

export const LOCALES = ['en', 'sr', 'es', 'it', 'de', 'fr', 'pl', 'ar', 'tr', 'zh', 'ko'] as const;
export type Locale = (typeof LOCALES)[number];
export const RTL_LANGUAGES = ['ar', 'he', 'fa', 'ur'] as const;
export const THEME_MODE = { light: 0, dark: 1, system: 2 } as const;

/**
 * The response header naming the database the server answers from (decision 0102). A client
 * whose replica holds another id loads again; lower case, as Fetch's Headers reports it.
 */
export const SERVER_ID_HEADER = 'x-server-id';
