import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { pathFor } from '../../../schema/routes';
import { Workspaces, type Member } from '../../api/endpoints';
import { ApiRequestError } from '../../api/client';
import { useSession } from '../../api/session';
import { workspaces } from '../../api/workspaces-cache';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { toast } from '../../ui/toast-store';
import { confirm } from '../../ui/confirm-store';
import { splitEmails } from '../../ui/validators';
import { translateMessage } from '../../i18n/server-messages';
import { Page } from '../Page';
import { SubmitButton, useAction } from '../forms';
import { FormError } from '../auth/AuthFrame';
import { ASSIGNABLE_ROLES, RoleLabel, ROLE_LABELS } from './roles';
import { useLoad, useTeamId } from './use-team';
import { previewMode } from '../../navigation/preview-instance';
import { Waiting } from '../../connectivity/Waiting';


/**
 * What was typed into the invite box, per workspace, for the life of the page: an answer such as
 * "verify your email first" navigates away, and coming back must not lose the list.
 */
const inviteDrafts = new Map<number, string>();

export default function MembersPage() {
  const { t, i18n } = useLingui();
  const teamId = useTeamId();
  const navigate = useNavigate();
  const { user } = useSession();
  const team = useLoad(() => Workspaces.get(teamId), [teamId]);
  // Members and pending invitations in one list; invitations are only visible to those who manage.
  const members = useLoad(async () => {
    const [joined, invited] = await Promise.all([Workspaces.members(teamId), Workspaces.invitations(teamId).catch(() => [] as Member[])]);
    const ids = new Set(joined.map((m) => m.id));
    return [...joined, ...invited.filter((m) => !ids.has(m.id)).map((m) => ({ ...m, pivot: { ...m.pivot, verified: false } }))];
  }, [teamId]);
  const [emails, setEmailsState] = useState(() => inviteDrafts.get(teamId) ?? '');
  const setEmails = (value: string) => {
    if (value) inviteDrafts.set(teamId, value);
    else inviteDrafts.delete(teamId);
    setEmailsState(value);
  };
  const [role, setRole] = useState<string>('full-member');
  const [inviteError, setInviteError] = useState<string | null>(null);

  const [invite, inviting] = useAction(
    async () => {
      setInviteError(null);
      const list = splitEmails(emails);
      if (list.length === 0) {
        setInviteError(t`Enter emails separated by commas, spaces or new lines.`);
        return;
      }
      await Workspaces.invite(teamId, list.map((email) => ({ email, role })));
      setEmails('');
      toast.show(t`Invitations sent.`, { kind: 'success' });
      members.reload();
    },
    {
      onError: (err) => {
        if (err instanceof ApiRequestError && err.status === 422) {
          // Valid entries were still invited (partial success): show the rest and refresh.
          setInviteError(translateMessage(err.body?.message ?? ''));
          members.reload();
          return true;
        }
        return false;
      },
    },
  );
  const [changeRole] = useAction(async (member: Member, next: string) => {
    await Workspaces.changeRole(teamId, member.id, next);
    toast.show(t`Role updated.`, { kind: 'success' });
    members.reload();
  });
  const [remove] = useAction(async (member: Member) => {
    if (!(await confirm({ message: t`Remove ${member.name} from this workspace?`, danger: true }))) return;
    await Workspaces.removeMember(teamId, member.id);
    members.reload();
  });
  const [resend] = useAction(async (member: Member) => {
    await Workspaces.resendInvitation(teamId, member.id);
    toast.show(t`Invitation sent again to ${member.email}.`, { kind: 'success' });
  });
  const [leave] = useAction(async () => {
    if (!(await confirm({ message: t`Leave this workspace?`, danger: true }))) return;
    await Workspaces.leave(teamId);
    await workspaces.refresh().catch(() => {});
    await navigate({ href: pathFor('home') });
  });

  const myRole = team.data?.user_role;
  // Preview (pretend) mode allows everything; its writes are refused by the API client (decision 0280).
  const canManage = previewMode.on || myRole === 'owner' || myRole === 'admin';
  const onInvite = (event: FormEvent) => {
    event.preventDefault();
    void invite();
  };

  return (
    <Page title={team.data ? t`Members of ${team.data.name}` : undefined}>
      {canManage && (
        <OnlineOnly>
          <form className="form form-inline" onSubmit={onInvite} noValidate aria-labelledby="invite-heading">
            <h2 id="invite-heading">
              <Trans>Invite people</Trans>
            </h2>
            <div className="field">
              <label htmlFor="invite-emails">
                <Trans>Emails</Trans>
              </label>
              <textarea id="invite-emails" name="emails" rows={2} value={emails} onChange={(e) => setEmails(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="invite-role">
                <Trans>Role</Trans>
              </label>
              <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value)}>
                {ASSIGNABLE_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {i18n._(ROLE_LABELS[r]!)}
                  </option>
                ))}
              </select>
            </div>
            <FormError message={inviteError} />
            <SubmitButton busy={inviting}>
              <Trans>Invite</Trans>
            </SubmitButton>
          </form>
        </OnlineOnly>
      )}
      {members.data === null ? (
        <Waiting />
      ) : (
        <table className="table" data-testid="members">
          <caption className="visually-hidden">
            <Trans>Members</Trans>
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans>Name</Trans>
              </th>
              <th scope="col">
                <Trans>Email</Trans>
              </th>
              <th scope="col">
                <Trans>Role</Trans>
              </th>
              <th scope="col">
                <Trans>Actions</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((member) => {
              const pending = member.pivot.verified === false;
              const isOwner = member.pivot.role === 'owner';
              const isMe = member.id === user?.id;
              return (
                <tr key={member.id} data-member={member.email}>
                  <td>
                    {member.name}
                    {pending && (
                      <span className="badge">
                        {' '}
                        <Trans>Pending</Trans>
                      </span>
                    )}
                  </td>
                  <td>{member.email}</td>
                  <td>
                    {canManage && !isOwner && !isMe ? (
                      <OnlineOnly compact>
                        <select aria-label={t`Role of ${member.name}`} value={member.pivot.role} onChange={(e) => void changeRole(member, e.target.value)}>
                          {ASSIGNABLE_ROLES.map((r) => (
                            <option key={r} value={r}>
                              {i18n._(ROLE_LABELS[r]!)}
                            </option>
                          ))}
                        </select>
                      </OnlineOnly>
                    ) : (
                      <RoleLabel role={member.pivot.role} />
                    )}
                  </td>
                  <td>
                    <div className="row-actions">
                    {canManage && pending && (
                      <button type="button" className="link-button" onClick={() => void resend(member)}>
                        <Trans>Resend invitation</Trans>
                      </button>
                    )}
                    {canManage && !isOwner && !isMe && (
                      <button type="button" className="link-button danger" onClick={() => void remove(member)}>
                        <Trans>Remove</Trans>
                      </button>
                    )}
                    {isMe && !isOwner && (
                      <button type="button" className="link-button danger" onClick={() => void leave()}>
                        <Trans>Leave workspace</Trans>
                      </button>
                    )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </Page>
  );
}
