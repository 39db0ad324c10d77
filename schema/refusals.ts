import { Messages } from './messages';
import { Permission } from './permission-names';

/**
 * The spec's specific refusals (workspace.md §8, W8.8): a 403 for one of these permissions, to
 * someone who can see what they acted on, says what they may not do instead of the generic
 * "This action is unauthorized." The app shows the same words where it greys the control.
 */
export const REFUSAL_MESSAGES: Readonly<Partial<Record<string, string>>> = {
  [Permission.CREATE_ITEM]: Messages.noPermissionCreateItems,
  [Permission.CREATE_VIEW]: Messages.noPermissionCreateViews,
  [Permission.EDIT_WORKSPACE_SETTINGS]: Messages.noPermissionUpdateWorkspace,
  [Permission.ADD_REACTION]: Messages.noPermissionReactions,
};

/** The refusal text for a permission: its specific one, else the generic one. */
export function refusalMessage(permission: string): string {
  return REFUSAL_MESSAGES[permission] ?? Messages.unauthorized;
}
