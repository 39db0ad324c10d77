import { AUTOBOT_NAME, AUTOBOT_USER_ID } from './automations';

/**
 * The special users of workspace.md §3 (W3.3, W8.4): the guest (id null, name Guest), the
 * automation bot (Autobot), and people the workspace no longer has: "Removed User" for someone the
 * server knows who is not a member, "Deleted Account" when the server does not find the account.
 * These are the English names; the app shows them through Lingui.
 */
export const GUEST_USER = Object.freeze({ id: null, name: 'Guest' });
export const REMOVED_USER_NAME = 'Removed User';
export const DELETED_ACCOUNT_NAME = 'Deleted Account';

export interface PersonNames {
  guest: string;
  removed: string;
  deleted: string;
}

/** A person's name as shown: a member by name, the bot, the guest, else removed or deleted. */
export function personName(
  id: number | null,
  memberName: (id: number) => string | undefined,
  accountDeleted: (id: number) => boolean,
  names: PersonNames = { guest: GUEST_USER.name, removed: REMOVED_USER_NAME, deleted: DELETED_ACCOUNT_NAME },
): string {
  if (id === null) return names.guest;
  if (id === AUTOBOT_USER_ID) return AUTOBOT_NAME;
  return memberName(id) ?? (accountDeleted(id) ? names.deleted : names.removed);
}
