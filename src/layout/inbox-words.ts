import { useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import { AUTOBOT_NAME, AUTOBOT_USER_ID } from '../../schema/automations';
import type { InboxLabel } from '../../sync-worker/client';
import { valueWords, type ActivityLookup, type Words } from '../boards/activity/activity-format';
import { rememberedMembers } from '../boards/store/workspace-info';
import { formatDate } from '../i18n/locale';

/**
 * Words for the conflict inbox (issue #30 part 2): a value as the board shows it (option, member,
 * item names, dates in the user's format; the activity log's own formatter, valueWords), and who
 * saved the other side, by name from the workspace's members this device remembers. A user id that
 * is not a member reads "Removed User" (workspace.md: unknown user ids).
 */
export interface InboxWords {
  value(label: InboxLabel, value: unknown, teamId: number | undefined): string;
  person(id: number | string | null | undefined, teamId: number | undefined): string | null;
}

export function useInboxWords(userId: number | null): InboxWords {
  const { t, i18n } = useLingui();
  return useMemo<InboxWords>(() => {
    const words: Words = {
      name: t`Name`,
      folder: t`Folder`,
      pinned: t`Pinned`,
      text: t`Text`,
      description: t`Description`,
      kind: t`Type`,
      hidden: t`Hidden`,
      yes: t`Yes`,
      no: t`No`,
      unknown: t`Unknown option`,
      formerMember: t`Removed User`,
      deleted: t`(deleted)`,
      formatDate: (iso) => (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? formatDate(`${iso}T00:00:00`, i18n.locale) : formatDate(iso, i18n.locale, { dateStyle: 'medium', timeStyle: 'short' })),
    };
    const empty = t`(empty)`;
    const memberName = (teamId: number | undefined, id: number) => (teamId === undefined ? undefined : rememberedMembers(teamId, userId).find((m) => m.id === id)?.name);
    return {
      value(label, value, teamId) {
        if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return empty;
        const attribute = label.attribute ?? undefined;
        const lookup: ActivityLookup = {
          attribute: () => attribute,
          memberName: (id) => memberName(teamId, id),
          folderName: () => undefined,
          itemName: (id) => label.items?.[id],
        };
        if (attribute) return valueWords(attribute, value, lookup, words) ?? empty;
        if (typeof value === 'string') return value;
        if (typeof value === 'number' || typeof value === 'boolean') return typeof value === 'boolean' ? (value ? words.yes : words.no) : String(value);
        return JSON.stringify(value);
      },
      person(id, teamId) {
        if (id === null || id === undefined) return null;
        const n = Number(id);
        if (n === AUTOBOT_USER_ID) return AUTOBOT_NAME;
        if (userId !== null && n === userId) return t`You`;
        return memberName(teamId, n) ?? t`Removed User`;
      },
    };
  }, [t, i18n.locale, userId]);
}
