/**
 * The server's push event announcing its version (shell.md §4: "a new version is detected through
 * … a server push event"; issue #27 S4.11). The embedded realtime server sends it on a user's
 * private channel (`private-App.User.{id}`) right after the subscription succeeds, so every
 * (re)connection — a restart into a new version included — tells the app which version runs.
 */
export const APP_VERSION_EVENT = 'AppVersion';

export interface AppVersionPayload {
  version: string;
}
