import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Messages } from '../../../schema/messages';
import { entryKey, explain, parseEntryKey, Permission, ROLE_LABELS, type Grant, type PermissionEntries, type PermissionName, type RoleOrGuest } from '../../../schema/permissions';
import { translateMessage } from '../../i18n/server-messages';
import { Page } from '../../screens/Page';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import type { BoardBackend } from '../store/backend';
import { chainTo } from '../model/access';
import { WithBackend } from './with-backend';
import { useBoardMeta } from './use-board-meta';
import '../boards.css';

/**
 * board.permissions (/team/{teamId}/boards/{boardId}/permissions): the board's own permission
 * entries per role, over what it inherits from the workspace (schema/permissions.ts). Each cell is
 * "inherit", "allow", "only their own" (an :owner entry) or "deny"; the effective answer is shown
 * beside it. A permission marked final does not inherit from the workspace. Needs MANAGE_PERMISSIONS.
 */

const BOARD_PERMISSIONS: PermissionName[] = [
  Permission.VIEW_BOARD,
  Permission.VIEW_FOLDER,
  Permission.CREATE_ITEM,
  Permission.EDIT_ITEM,
  Permission.DELETE_ITEM,
  Permission.CREATE_FOLDER,
  Permission.EDIT_FOLDER,
  Permission.DELETE_FOLDER,
  Permission.EDIT_FOLDER_SETTINGS,
  Permission.MANAGE_ATTRIBUTES,
  Permission.CREATE_VIEW,
  Permission.CUSTOMIZE_VIEW,
  Permission.DELETE_VIEW,
  Permission.ACCESS_PERSONAL_VIEWS,
  Permission.EDIT_LOCKED_VIEWS,
  Permission.ADD_COMMENT,
  Permission.DELETE_COMMENT,
  Permission.PIN_COMMENT,
  Permission.ADD_REACTION,
  Permission.UPDATE_BOARD,
  Permission.MANAGE_BOARD_MEMBERS,
  Permission.DELETE_BOARD,
  Permission.EXPORT,
];
const ROLES: RoleOrGuest[] = ['admin', 'full-member', 'restricted-member', 'guest'];
type Choice = 'inherit' | 'allow' | 'own' | 'deny';

export default function BoardPermissionsPage() {
  const { t } = useLingui();
  return (
    <Page title={t`Board permissions`}>
      <WithBackend>{(backend) => <Permissions backend={backend} />}</WithBackend>
    </Page>
  );
}

function choiceOf(entries: PermissionEntries, permission: string, role: string): Choice {
  const own = entries[entryKey(permission, 'role', role, true)];
  const plain = entries[entryKey(permission, 'role', role)];
  if (own === 'allow' && plain !== 'allow') return 'own';
  if (plain === 'allow') return 'allow';
  if (plain === 'deny') return 'deny';
  return 'inherit';
}

function withChoice(entries: PermissionEntries, permission: string, role: string, choice: Choice): PermissionEntries {
  const next = { ...entries };
  delete next[entryKey(permission, 'role', role)];
  delete next[entryKey(permission, 'role', role, true)];
  const set = (key: string, grant: Grant) => (next[key] = grant);
  if (choice === 'allow') set(entryKey(permission, 'role', role), 'allow');
  if (choice === 'deny') set(entryKey(permission, 'role', role), 'deny');
  if (choice === 'own') {
    set(entryKey(permission, 'role', role, true), 'allow');
    set(entryKey(permission, 'role', role), 'deny');
  }
  return next;
}

function Permissions({ backend }: { backend: BoardBackend }) {
  const { t } = useLingui();
  const { teamId, boardId, board, folders, info, access, loading } = useBoardMeta(backend);
  const [entries, setEntries] = useState<PermissionEntries>({});
  const [finals, setFinals] = useState<string[]>([]);
  useEffect(() => {
    if (board) {
      setEntries((board.permissions ?? {}) as PermissionEntries);
      setFinals(board.final_permissions ?? []);
    }
  }, [board?.id, board?.row_version]); // eslint-disable-line react-hooks/exhaustive-deps

  if (loading) return <Spinner />;
  if (!board || !folders) return <EmptyState title={translateMessage(Messages.notFound)} />;
  const canManage = access.can('MANAGE_PERMISSIONS', boardId);
  const preview = { ...board, permissions: entries, final_permissions: finals };
  const chain = chainTo(info?.workspace ?? { id: teamId, owner_id: null, permissions: {} }, new Map(folders.map((f) => [f.id, f.id === boardId ? preview : f])), boardId);
  const effective = (permission: PermissionName, role: RoleOrGuest, own: boolean) =>
    chain ? explain({ permission, user: { id: role === 'guest' ? null : -1, role }, chain, createdBy: own ? -1 : null }).allowed : false;
  const label: Record<Choice, string> = { inherit: t`inherit`, allow: t`allow`, own: t`only their own`, deny: t`deny` };
  const other = Object.fromEntries(Object.entries(entries).filter(([key]) => {
    const parsed = parseEntryKey(key);
    return !parsed || parsed.tokenType !== 'role';
  }));

  return (
    <div className="board-permissions" data-testid="board-permissions">
      <p>
        <Trans>Permissions of {board.name}. Folders inherit these unless they set their own.</Trans>
      </p>
      {!canManage && (
        <p className="hint" role="note">
          <Trans>You can see these permissions; changing them needs the permission to manage permissions.</Trans>
        </p>
      )}
      <table className="permission-table">
        <thead>
          <tr>
            <th scope="col">
              <Trans>Permission</Trans>
            </th>
            {ROLES.map((role) => (
              <th key={role} scope="col">
                {ROLE_LABELS[role]}
              </th>
            ))}
            <th scope="col">
              <Trans>Final</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {BOARD_PERMISSIONS.map((permission) => (
            <tr key={permission} data-permission={permission}>
              <th scope="row">{permission}</th>
              {ROLES.map((role) => {
                const choice = choiceOf(entries, permission, role);
                const yes = effective(permission, role, false);
                const ownYes = effective(permission, role, true);
                return (
                  <td key={role}>
                    <select
                      aria-label={`${permission} ${ROLE_LABELS[role]}`}
                      disabled={!canManage}
                      value={choice}
                      onChange={(e) => setEntries(withChoice(entries, permission, role, e.target.value as Choice))}
                    >
                      {(['inherit', 'allow', 'own', 'deny'] as Choice[]).map((c) => (
                        <option key={c} value={c}>
                          {label[c]}
                        </option>
                      ))}
                    </select>
                    <small className={`effective ${yes ? 'is-yes' : ownYes ? 'is-own' : 'is-no'}`}>{yes ? t`yes` : ownYes ? t`own` : t`no`}</small>
                  </td>
                );
              })}
              <td>
                <input
                  type="checkbox"
                  aria-label={t`${permission} is final`}
                  disabled={!canManage}
                  checked={finals.includes(permission)}
                  onChange={(e) => setFinals(e.target.checked ? [...finals, permission] : finals.filter((f) => f !== permission))}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {Object.keys(other).length > 0 && (
        <p className="hint">
          <Trans>Entries for single people and tags are kept as they are.</Trans>
        </p>
      )}
      <div className="board-form-actions">
        <a href={pathFor('board', { rootId: boardId })}>
          <Trans>Back to the board</Trans>
        </a>
        <Button
          disabled={!canManage}
          data-testid="save-permissions"
          onClick={async () => {
            const { collection: _c, ...record } = board as typeof board & { collection?: string };
            await backend.save('folder', { ...record, permissions: entries, final_permissions: finals }, { teamId });
            toast.show(t`Permissions saved.`, { kind: 'success' });
          }}
        >
          <Trans>Save</Trans>
        </Button>
      </div>
    </div>
  );
}
