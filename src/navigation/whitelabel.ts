/** A workspace as far as white-label navigation cares. */
export interface WhiteLabelWorkspace {
  id: number;
  whitelabel_settings?: { link?: string | null } | null;
  domain?: string | null;
}

/**
 * The white-label base URL of a workspace, if it has one: the link the server sets once the
 * owner has verified the workspace's domain (decision 0265). The bare `domain` field is not
 * enough: admins may edit it in the workspace settings, and an unproven domain is not ours to send people to.
 */
export function whiteLabelLink(workspace: WhiteLabelWorkspace | undefined | null): string | null {
  const link = workspace?.whitelabel_settings?.link ?? null;
  if (!link) return null;
  const withScheme = /^https?:\/\//i.test(link) ? link : `https://${link}`;
  return withScheme.replace(/\/+$/, '');
}

/**
 * Where navigating to a workspace route should go instead (shell.md §2): the link plus the full
 * path (path, query and hash), opened in a new window. Null when we are already on that origin or the
 * workspace has no link.
 */
export function whiteLabelTarget(workspace: WhiteLabelWorkspace | undefined | null, fullPath: string, currentOrigin: string): string | null {
  const link = whiteLabelLink(workspace);
  if (!link) return null;
  try {
    if (new URL(link).origin === currentOrigin) return null;
  } catch {
    return null;
  }
  return link + (fullPath.startsWith('/') ? fullPath : '/' + fullPath);
}
