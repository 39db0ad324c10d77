import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Clock, Code, CreditCard, Gift, House, LayoutGrid, Plus, Settings, Shield, User, Users, X } from 'lucide-react';
import { pathFor } from '../../schema/routes';
import { useWorkspaces } from '../api/workspaces-cache';
import { useSession } from '../api/session';
import { LogoutButton, LogoutRemovingCopyButton } from './LogoutButton';
import { InstallAppButton } from './InstallAppButton';
import { ConflictsSidebarEntry } from './ConflictInbox';
import { useAppVars } from '../use-app-vars';
import { BoardsNav } from '../boards/BoardsNav';
import { StorageKeys } from '../storage/local-store';
import { useStored } from '../storage/use-stored';

export function Sidebar({ onClose }: { onClose?: () => void }) {
  const { list } = useWorkspaces();
  const { user } = useSession();
  const { t } = useLingui();
  const [helperVisible, setHelperVisible] = useStored(StorageKeys.helperVisible, true);
  // Live: the link follows app-vars when a later load says billing is on or off.
  const vars = useAppVars();
  return (
    <nav id="sidebar" className="shell-sidebar" aria-label={t`Main`}>
      {onClose && (
        <button type="button" className="shell-sidebar-close" onClick={onClose}>
          <X size={16} aria-hidden="true" />
          <Trans>Close menu</Trans>
        </button>
      )}
      <ul className="shell-nav">
        <li>
          <Link to={pathFor('home')} activeProps={{ 'aria-current': 'page' }}>
            <House size={16} aria-hidden="true" />
            <Trans>Home</Trans>
          </Link>
        </li>
      </ul>
      <h2 className="shell-nav-heading">
        <Trans>Workspaces</Trans>
      </h2>
      <ul className="shell-nav">
        {(list ?? []).map((workspace) => (
          <li key={workspace.id}>
            <Link to={pathFor('team.boards', { teamId: workspace.id })} activeOptions={{ exact: true }} activeProps={{ 'aria-current': 'page' }}>
              <LayoutGrid size={16} aria-hidden="true" />
              {workspace.name}
            </Link>
            <BoardsNav teamId={workspace.id} />
            <ul className="shell-subnav">
              <li>
                <Link to={pathFor('team.members', { teamId: workspace.id })} activeProps={{ 'aria-current': 'page' }}>
                  <Users size={14} aria-hidden="true" />
                  <Trans>Members</Trans>
                </Link>
              </li>
              <li>
                <Link to={pathFor('team.settings', { teamId: workspace.id })} activeProps={{ 'aria-current': 'page' }}>
                  <Settings size={14} aria-hidden="true" />
                  <Trans>Settings</Trans>
                </Link>
              </li>
            </ul>
          </li>
        ))}
        <li>
          <Link to={pathFor('create-workspace')}>
            <Plus size={16} aria-hidden="true" />
            <Trans>New workspace</Trans>
          </Link>
        </li>
      </ul>
      <h2 className="shell-nav-heading">
        <Trans>Account</Trans>
      </h2>
      <ul className="shell-nav">
        <li>
          <Link to={pathFor('profile')} activeProps={{ 'aria-current': 'page' }}>
            <User size={16} aria-hidden="true" />
            {user?.name ?? t`Profile settings`}
          </Link>
        </li>
        <li>
          <Link to={pathFor('profile.security')} activeProps={{ 'aria-current': 'page' }}>
            <Shield size={16} aria-hidden="true" />
            <Trans>Security</Trans>
          </Link>
        </li>
        <li>
          <Link to={pathFor('profile.time')} activeProps={{ 'aria-current': 'page' }}>
            <Clock size={16} aria-hidden="true" />
            <Trans>My time</Trans>
          </Link>
        </li>
        {/* Hidden on an instance without billing (BILLING=off, decision 0240). */}
        {vars.billing !== false && (
          <li>
            <Link to={pathFor('profile.billing')} activeProps={{ 'aria-current': 'page' }}>
              <CreditCard size={16} aria-hidden="true" />
              <Trans>Billing</Trans>
            </Link>
          </li>
        )}
        {vars.billing !== false && (
          <li>
            <Link to={pathFor('profile.referral')} activeProps={{ 'aria-current': 'page' }}>
              <Gift size={16} aria-hidden="true" />
              <Trans>Referral</Trans>
            </Link>
          </li>
        )}
        <li>
          <Link to={pathFor('profile.developer')} activeProps={{ 'aria-current': 'page' }}>
            <Code size={16} aria-hidden="true" />
            <Trans>Developer</Trans>
          </Link>
        </li>
        <ConflictsSidebarEntry />
        <InstallAppButton />
        <li>
          <LogoutButton />
        </li>
        <li>
          <LogoutRemovingCopyButton />
        </li>
      </ul>
      {helperVisible ? (
        <aside className="shell-helper">
          <p>
            <Trans>Tip: invite your team from the Members page of a workspace.</Trans>
          </p>
          <button type="button" onClick={() => setHelperVisible(false)}>
            <Trans>Hide tips</Trans>
          </button>
        </aside>
      ) : (
        <button type="button" className="shell-helper-show" onClick={() => setHelperVisible(true)}>
          <Trans>Show tips</Trans>
        </button>
      )}
    </nav>
  );
}
