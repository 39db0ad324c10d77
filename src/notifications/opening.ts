import { whiteLabelTarget, type WhiteLabelWorkspace } from '../navigation/whitelabel';

/**
 * How a notification's target opens (workspace.md §2, notification-to-route mapping): inside the
 * app, or outside it in a new window — when the notification's workspace has a white-label link
 * (its prefix plus the app path, as white-label navigation does for workspace routes), or when
 * the target is an address on another origin (an external link). Pure, unit-tested.
 */
export type Opening = { kind: 'app'; href: string } | { kind: 'external'; url: string };

export function openingFor(href: string, teamId: number | null, workspaces: readonly WhiteLabelWorkspace[] | null, origin: string): Opening {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
    try {
      const url = new URL(href);
      if (url.origin === origin) return { kind: 'app', href: url.pathname + url.search + url.hash };
      return url.protocol === 'https:' || url.protocol === 'http:' ? { kind: 'external', url: url.href } : { kind: 'app', href: '/' };
    } catch {
      return { kind: 'app', href: '/' };
    }
  }
  const workspace = teamId === null ? null : workspaces?.find((w) => w.id === teamId);
  const prefixed = whiteLabelTarget(workspace, href, origin);
  return prefixed ? { kind: 'external', url: prefixed } : { kind: 'app', href };
}
