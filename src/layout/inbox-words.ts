import { useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import { personName } from '../../schema/special-users';
import type { InboxLabel } from '../../sync-worker/client';
import { valueWords, type ActivityLookup, type Words } from '../boards/activity/activity-format';
import { rememberedMembers } from '../boards/store/workspace-info';
import { formatDate } from '../i18n/locale';

/**
 * Words for the conflict inbox (issue #30 part 2): a value as the board shows it (option, member,
 * item names, dates in the user's format; the activity log's own formatter, valueWords), and who
 * saved the other side, by name from the workspace's members this device remembers, named as
 * everywhere else by schema/special-users.ts: a user id that is not a member reads "Removed User",
 * one whose account the server no longer finds "Deleted Account" (W3.3, W8.4), the bot Autobot.
 */
export interface InboxWords {
  value(label: InboxLabel, value: unknown, teamId: number | undefined): string;
  person(id: number | string | null | undefined, teamId: number | undefined): string | null;
}

const NOBODY: ReadonlySet<number> = new Set();

export function useInboxWords(userId: number | null, deleted: ReadonlySet<number> = NOBODY): InboxWords {
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
    const people = { guest: t`Guest`, removed: t`Removed User`, deleted: t`Deleted Account` };
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
        if (userId !== null && n === userId) return t`You`;
        return personName(n, (x) => memberName(teamId, x), (x) => deleted.has(x), people);
      },
    };
  }, [t, i18n.locale, userId, deleted]);
}
