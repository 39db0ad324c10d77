import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { MessageDescriptor } from '@lingui/core';

/** Workspace roles (workspace.md §6); the assignable list excludes owner. */
export const ROLE_LABELS: Record<string, MessageDescriptor> = {
  owner: msg`Owner`,
  admin: msg`Admin`,
  'full-member': msg`Full Member`,
  'restricted-member': msg`Restricted Member`,
  guest: msg`Guest`,
};
export const ASSIGNABLE_ROLES = ['admin', 'full-member', 'restricted-member'] as const;

export function RoleLabel({ role }: { role: string }) {
  const { i18n } = useLingui();
  const descriptor = ROLE_LABELS[role];
  return <>{descriptor ? i18n._(descriptor) : role}</>;
}
