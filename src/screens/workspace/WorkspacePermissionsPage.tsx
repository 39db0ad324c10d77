import { useEffect, useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { entryKey, explain, parseEntryKey, type Grant, type PermissionEntries, type PermissionLevel, type PermissionName } from '../../../schema/permissions';
import { api, ApiRequestError, OFFLINE_STATUS } from '../../api/client';
import { recordOf, Workspaces, type Workspace } from '../../api/endpoints';
import { showApiError } from '../../api/handle-error';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { BusyButton } from '../../ui/BusyButton';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { Page } from '../Page';
import { PERMISSION_GROUPS, PERMISSION_LABELS } from './permission-labels';
import { ROLE_LABELS } from './roles';
import { WorkspaceNotFound } from './WorkspaceNotFound';
import { useTeamId } from './use-team';
import { useTeamVersion } from '../../navigation/team-events';
import { previewMode } from '../../navigation/preview-instance';
import './workspace.css';

/**
 * team.permissions (/team/{teamId}/permissions): what each role may do in the workspace, over
 * GET/PUT /api/{teamId}/permissions. Each permission is a sentence; per role the choice is the
 * role's default, allowed, "only their own" (allow on what they created) or not allowed, with the
 * effect beside it. Boards and folders inherit these unless they set their own. Owners always may.
 */

const ROLES = ['admin', 'full-member', 'restricted-member'] as const;
type Role = (typeof ROLES)[number];
type Choice = 'default' | 'allow' | 'own' | 'deny';

interface PermissionRecord {
  permissions: PermissionEntries;
  row_version: number;
}

function choiceOf(entries: PermissionEntries, permission: string, role: string): Choice {
  const own = entries[entryKey(permission, 'role', role, true)];
  const plain = entries[entryKey(permission, 'role', role)];
  if (own === 'allow' && plain !== 'allow') return 'own';
  if (plain === 'allow') return 'allow';
  if (plain === 'deny') return 'deny';
  return 'default';
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

export default function WorkspacePermissionsPage() {
  const teamId = useTeamId();
  const [state, setState] = useState<{ status: 'loading' } | { status: 'missing' } | { status: 'offline' } | { status: 'ready'; team: Workspace; record: PermissionRecord }>({ status: 'loading' });
  const [version, setVersion] = useState(0);
  // Live: another admin's change (team.{id}.permissions) or a role change loads the page again.
  const live = useTeamVersion(teamId);
  useEffect(() => {
    let live = true;
    Promise.all([Workspaces.get(teamId), api.get<unknown>(`/api/${teamId}/permissions`)]).then(
      ([team, answer]) => live && setState({ status: 'ready', team, record: recordOf<PermissionRecord>(answer) }),
      (error) => {
        if (!live) return;
        if (error instanceof ApiRequestError && error.status === OFFLINE_STATUS) setState({ status: 'offline' });
        else if (error instanceof ApiRequestError && (error.status === 404 || error.status === 403)) setState({ status: 'missing' });
        else {
          showApiError(error);
          setState({ status: 'missing' });
        }
      },
    );
    return () => {
      live = false;
    };
  }, [teamId, version, live]);

  if (state.status === 'missing') return <WorkspaceNotFound />;
  return (
    <Page>
      {state.status === 'loading' ? (
        <Spinner />
      ) : state.status === 'offline' ? (
        <p className="notice" role="note">
          <Trans>Permissions are kept on the server. They show here when you are back online.</Trans>
        </p>
      ) : (
        <OnlineOnly>
          <PermissionsForm team={state.team} record={state.record} onSaved={() => setVersion((v) => v + 1)} />
        </OnlineOnly>
      )}
    </Page>
  );
}

function PermissionsForm({ team, record, onSaved }: { team: Workspace; record: PermissionRecord; onSaved: () => void }) {
  const { t, i18n } = useLingui();
  const [entries, setEntries] = useState<PermissionEntries>(record.permissions ?? {});
  useEffect(() => setEntries(record.permissions ?? {}), [record]);
  const level = (perms: PermissionEntries): PermissionLevel[] => [{ type: 'workspace', id: team.id, permissions: perms, created_by: team.owner_id }];
  const savedChain = useMemo(() => level(record.permissions ?? {}), [record]); // eslint-disable-line react-hooks/exhaustive-deps
  const role = team.user_role ?? 'guest';
  // Preview (pretend) mode allows everything; its saves are refused by the API client (decision 0280).
  const canManage = role === 'owner' || explain({ permission: 'MANAGE_PERMISSIONS', user: { id: -2, role: role as Role }, chain: savedChain, preview: previewMode.on }).allowed;
  const chain = level(entries);
  const effective = (permission: PermissionName, r: Role) => {
    if (explain({ permission, user: { id: -1, role: r }, chain, createdBy: -3 }).allowed) return 'yes';
    return explain({ permission, user: { id: -1, role: r }, chain, createdBy: -1 }).allowed ? 'own' : 'no';
  };
  const dirty = JSON.stringify(entries) !== JSON.stringify(record.permissions ?? {});
  const others = Object.keys(entries).some((key) => parseEntryKey(key)?.tokenType !== 'role');
  const choiceLabel: Record<Choice, string> = { default: t`Role default`, allow: t`Allowed`, own: t`Only their own`, deny: t`Not allowed` };
  const effectLabel = { yes: t`Can`, own: t`Only their own`, no: t`Cannot` };

  return (
    <div className="workspace-permissions" data-testid="workspace-permissions">
      <p>
        <Trans>What each role may do in {team.name}. Boards and folders follow these unless they set their own. The owner may always do everything.</Trans>
      </p>
      {!canManage && (
        <p className="notice" role="note">
          <Trans>You can see these permissions. Changing them needs the permission to change permissions; ask the workspace owner.</Trans>
        </p>
      )}
      {PERMISSION_GROUPS.map((group) => (
        <section key={group.title.id} className="permission-group">
          <h2>{i18n._(group.title)}</h2>
          <table className="workspace-permission-table">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Permission</Trans>
                </th>
                {ROLES.map((r) => (
                  <th key={r} scope="col">
                    {i18n._(ROLE_LABELS[r]!)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {group.permissions.map((permission) => {
                const sentence = i18n._(PERMISSION_LABELS[permission]);
                return (
                  <tr key={permission} data-permission={permission}>
                    <th scope="row">{sentence}</th>
                    {ROLES.map((r) => {
                      const effect = effective(permission, r);
                      return (
                        <td key={r}>
                          <select
                            aria-label={`${sentence} · ${i18n._(ROLE_LABELS[r]!)}`}
                            disabled={!canManage}
                            value={choiceOf(entries, permission, r)}
                            onChange={(e) => setEntries(withChoice(entries, permission, r, e.target.value as Choice))}
                          >
                            {(['default', 'allow', 'own', 'deny'] as Choice[]).map((c) => (
                              <option key={c} value={c}>
                                {choiceLabel[c]}
                              </option>
                            ))}
                          </select>
                          <span className={`permission-effective is-${effect}`}>{effectLabel[effect]}</span>
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      ))}
      {others && (
        <p className="muted">
          <Trans>Entries for single people and tags are kept as they are.</Trans>
        </p>
      )}
      <div className="permission-actions">
        <Link to={pathFor('team.boards', { teamId: team.id })} className="ui-button ui-button--ghost ui-button--md">
          <Trans>Back to the workspace</Trans>
        </Link>
        <BusyButton
          variant="primary"
          disabled={!canManage || !dirty}
          data-testid="save-workspace-permissions"
          onClick={async () => {
            try {
              await api.put(`/api/${team.id}/permissions`, { permissions: entries, row_version: record.row_version + 1 });
              toast.show(t`Permissions saved.`, { kind: 'success' });
              onSaved();
            } catch (error) {
              showApiError(error);
            }
          }}
        >
          <Trans>Save permissions</Trans>
        </BusyButton>
      </div>
    </div>
  );
}
