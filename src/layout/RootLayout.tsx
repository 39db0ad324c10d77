import { useEffect, useState } from 'react';
import { Outlet, useMatches } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Menu, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import type { RouteDef } from '../../schema/routes';
import { StorageKeys } from '../storage/local-store';
import { useStored } from '../storage/use-stored';
import { useSession } from '../api/session';
import { useIsDesktop } from './use-desktop';
import { ProgressBar } from './ProgressBar';
import { UiHost } from '../ui/UiHost';
import { Sidebar } from './Sidebar';
import { ConnectivityWatcher } from './ConnectivityWatcher';
import { ConflictInboxPanel } from './ConflictInbox';
import { WorkspaceLimitDialog } from './WorkspaceLimitDialog';
import { OfflineBanner } from './OfflineBanner';
import { PaletteHost } from '../palette/PaletteHost';
import { NotificationsButton, NotificationsWatcher } from '../notifications/NotificationsButton';
import { RunningTimersSlot } from './RunningTimersSlot';
import { BoardJobsSlot } from './BoardJobsSlot';
import { StatusBanner } from './StatusBanner';
import { brandName, tenantBrand } from '../whitelabel/tenant';
import { ShellRulesHost } from './ShellRulesHost';
import { PreviewBadge } from './PreviewBadge';
import { PullToRefresh } from '../ui/PullToRefresh';

/**
 * The frame around every screen: progress bar, toasts, connectivity, and for signed-in routes of the
 * app shell the sidebar (beside the content on desktop, a drawer on mobile; visibility remembered).
 */
export function RootLayout() {
  const matches = useMatches();
  const route = matches[matches.length - 1]?.staticData?.route as RouteDef | undefined;
  const { status } = useSession();
  const desktop = useIsDesktop();
  const [sidebarVisible, setSidebarVisible] = useStored(StorageKeys.sidebarVisible, true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { t } = useLingui();
  const withSidebar = Boolean(route?.shell && !route.noSidebar && status === 'signedIn');
  // `?hide_header` (carried from route to route) embeds a screen without the top bar.
  const search = matches[matches.length - 1]?.search as Record<string, unknown> | undefined;
  const hideHeader = search?.hide_header !== undefined && search?.hide_header !== 'false';
  const showSidebar = withSidebar && (desktop ? sidebarVisible : drawerOpen);

  // The drawer closes on navigation.
  const path = matches[matches.length - 1]?.pathname;
  useEffect(() => setDrawerOpen(false), [path]);

  return (
    <div className={`shell ${desktop ? 'is-desktop' : 'is-mobile'}${showSidebar ? ' has-sidebar' : ''}`}>
      <a className="skip-link" href="#main">
        <Trans>Skip to content</Trans>
      </a>
      <ProgressBar />
      <StatusBanner />
      <ConnectivityWatcher />
      <ConflictInboxPanel />
      <NotificationsWatcher />
      {withSidebar && !hideHeader && (
        <header className="shell-topbar">
          <button
            type="button"
            className="shell-menu-button"
            aria-expanded={showSidebar}
            aria-controls="sidebar"
            onClick={() => (desktop ? setSidebarVisible(!sidebarVisible) : setDrawerOpen(!drawerOpen))}
            aria-label={showSidebar ? t`Hide sidebar` : t`Show sidebar`}
            title={showSidebar ? t`Hide sidebar` : t`Show sidebar`}
          >
            {desktop ? showSidebar ? <PanelLeftClose size={18} aria-hidden="true" className="ui-flip-rtl" /> : <PanelLeftOpen size={18} aria-hidden="true" className="ui-flip-rtl" /> : <Menu size={20} aria-hidden="true" />}
          </button>
          <span className="shell-brand">{tenantBrand()?.logoWide ? <img src={tenantBrand()!.logoWide!} alt={brandName()} className="shell-brand-logo" /> : brandName()}</span>
          <RunningTimersSlot />
          <NotificationsButton />
        </header>
      )}
      <div className="shell-body">
        {showSidebar && <Sidebar onClose={desktop ? undefined : () => setDrawerOpen(false)} />}
        <main id="main" className="shell-main" tabIndex={-1} data-route={route?.name}>
          <OfflineBanner />
          {/* Pull-to-refresh on touch (shell.md §4, S4.24): the page's content, on the mobile layout. */}
          <PullToRefresh className="shell-ptr" disabled={desktop}>
            <Outlet />
          </PullToRefresh>
        </main>
      </div>
      <WorkspaceLimitDialog />
      <BoardJobsSlot />
      {status === 'signedIn' && <PaletteHost />}
      <ShellRulesHost />
      <PreviewBadge />
      <UiHost />
    </div>
  );
}
