import type { ComponentType } from 'react';

/**
 * The screen of each built route, loaded lazily so every route is its own chunk. Routes without an
 * entry render the placeholder page (heading and empty state) until their issue builds them.
 */
type Loader = () => Promise<{ default: ComponentType }>;

/** Routes the server answers with its own HTML page (decision 0210): moved to in the app, they load from the server. */
const SERVER_PAGE_ROUTES = ['form', 'published-document', 'published-file', 'shared-document-item'];

export const screens: Record<string, Loader> = {
  login: () => import('./auth/LoginPage'),
  register: () => import('./auth/RegisterPage'),
  'register.invitation': () => import('./auth/RegisterPage'),
  'password.reset': () => import('./auth/PasswordResetPage'),
  'password.set': () => import('./auth/PasswordSetPage'),
  'verify-email': () => import('./auth/VerifyEmailPage'),
  'auth.reauthenticate': () => import('./auth/ReauthenticatePage'),
  // Issue #18: single sign-on with OpenID Connect (decision 0270).
  auth: () => import('./auth/SsoStartPage'),
  'auth.redirect': () => import('./auth/SsoRedirectPage'),
  'team.sso': () => import('./workspace/SsoPage'),
  home: () => import('./home/HomePage'),
  'profile.workspaces': () => import('./home/HomePage'),
  'create-workspace': () => import('./workspace/CreateWorkspacePage'),
  'team.members': () => import('./workspace/MembersPage'),
  'team.settings': () => import('./workspace/TeamSettingsPage'),
  profile: () => import('./profile/ProfileSettingsPage'),
  'profile.security': () => import('./profile/SecurityPage'),
  'profile.notifications': () => import('./profile/NotificationSettingsPage'),
  'profile.time': () => import('./profile/MyTimePage'),
  // Issue #18: the plan, trial, usage and plans (decision 0240).
  'profile.billing': () => import('./billing/BillingPage'),
  // Issue #18: lifetime deals, add-ons and the trial e-mail's link (decision 0255).
  'activate-ltd': () => import('./billing/ActivateLtdPage'),
  'subscription.buy-addon': () => import('./billing/AddonsPage'),
  trial: () => import('./billing/TrialEmailPage'),
  // Issue #18: buying and changing a plan, and the page after paying (decision 0250).
  checkout: () => import('./billing/CheckoutPage'),
  'subscription.upgrade': () => import('./billing/CheckoutPage'),
  'subscription.redirect': () => import('./billing/SubscriptionRedirectPage'),
  // Issue #18: the referral programme (decision 0260).
  'profile.referral': () => import('./referral/ReferralPage'),
  'profile.twoFactor.status': () => import('./profile/TwoFactorPage'),
  'profile.twoFactor.recoveryCodes': () => import('./profile/RecoveryCodesPage'),
  'profile.developer': () => import('./profile/developer/DeveloperPage'),
  'profile.developer.tokens': () => import('./profile/developer/TokensPage'),
  'profile.developer.apps': () => import('./profile/developer/AppsPage'),
  'profile.developer.hooks': () => import('./profile/developer/hooks/HooksPage'),
  'profile.developer.hook': () => import('./profile/developer/hooks/HookPage'),
  'profile.developer.hook.logs': () => import('./profile/developer/hooks/HookLogsPage'),
  'profile.applications': () => import('./profile/developer/ApplicationsPage'),
  'oauth.authorize': () => import('./profile/developer/ConsentPage'),
  board: () => import('../boards/screens/BoardPage'),
  folder: () => import('../boards/screens/BoardPage'),
  'create-board': () => import('../boards/screens/CreateBoardPage'),
  'edit-board': () => import('../boards/screens/EditBoardPage'),
  'board.permissions': () => import('../boards/screens/BoardPermissionsPage'),
  'board.activity': () => import('../boards/screens/BoardActivityPage'),
  // Issue #17: the workspace's front page and permissions; routes whose feature comes later say so.
  'team.boards': () => import('./workspace/WorkspaceOverviewPage'),
  'team.permissions': () => import('./workspace/WorkspacePermissionsPage'),
  // Issue #18: white label and the forward to a workspace's own domain (decision 0265).
  'team.whitelabel': () => import('./workspace/WhitelabelPage'),
  'forward.whitelabel': () => import('./workspace/ForwardWhitelabelPage'),
  // Issue #16: the template gallery, the user's templates and the template start link (decision 0165).
  'templates.home': () => import('../templates/GalleryPage'),
  'templates.tag': () => import('../templates/GalleryPage'),
  'templates.search': () => import('../templates/GalleryPage'),
  'templates.landing': () => import('../templates/LandingPage'),
  'custom-templates': () => import('../templates/MyTemplatesPage'),
  'custom-templates.shared': () => import('../templates/MyTemplatesPage'),
  'custom-templates.templates.edit': () => import('../templates/EditTemplatePage'),
  'custom-templates.templates.landing': () => import('../templates/LandingPage'),
  'forward.template': () => import('../templates/ForwardPage'),
  redirect: () => import('./later/RedirectPage'),
  onboarding: () => import('./later/OnboardingPage'),
  'attachment.download': () => import('./later/AttachmentDownloadPage'),
  // Issue #16: Trello import from an export file or through Trello's API (decision 0220).
  'trello-import': () => import('../imports/TrelloImportPage'),
  'trello-import-board': () => import('../imports/TrelloImportPage'),
  'extract-trello-token': () => import('../imports/TrelloTokenPage'),
  // Issue #13: the public form and published documents are the server's own pages (decisions 0136, 0210).
  ...Object.fromEntries(SERVER_PAGE_ROUTES.map((name) => [name, () => import('./server-page/ServerPage')])),
};
