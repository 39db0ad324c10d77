import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import type { ApiAbility } from '../../../../schema/api-abilities';

/** What each token ability allows, in words (the server's mapping: server/developer/abilities.ts). */
export const ABILITY_LABELS: Record<ApiAbility, { name: MessageDescriptor; text: MessageDescriptor }> = {
  read: { name: msg`Read`, text: msg`See your workspaces, boards and records` },
  write: { name: msg`Write`, text: msg`Create, change and delete records` },
  hooks: { name: msg`Webhooks`, text: msg`Manage webhooks and read their logs` },
  admin: { name: msg`Administration`, text: msg`Change workspace settings, members, roles and permissions` },
  billing: { name: msg`Billing`, text: msg`Buy, change and cancel plans, manage payment cards and read invoices` },
};

/** A token's abilities as a short list of names. */
export function AbilityNames({ abilities }: { abilities: readonly ApiAbility[] }) {
  const { i18n } = useLingui();
  return <>{abilities.map((ability) => i18n._(ABILITY_LABELS[ability]?.name ?? msg`Read`)).join(', ')}</>;
}
