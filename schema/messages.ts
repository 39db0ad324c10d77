/**
 * The error catalogue of the spec (shell.md §8, workspace.md §8) and other fixed user-facing texts.
 * These strings are the English source; the UI translates them through Lingui using the same text
 * as the message id, and the server sends them as `message` so any client shows the same words.
 */
export const Messages = {
  unauthorized: 'This action is unauthorized.',
  notFound: 'Not Found',
  conflict: 'Updates overlapped, causing a hiccup. Please verify the latest data is correct.',
  validationPrefix: 'Validation Error: ',
  somethingWentWrong: 'Something Went Wrong',
  emailNotVerified: 'Your email address is not verified.',
  offlineAction: 'This action is not available when you are offline.',
  offlineFeature: 'This feature is not available when offline',
  stillOffline: 'still offline',
  previewMode: 'This feature is not available in preview mode.',
  refreshWithoutIndex: 'Cannot refresh without index',
  refreshNotInitialized: 'Cannot refresh if not initialized',
  missingAccessToken: 'Access Token does not have required property access_token.',
  challengeFailed: 'Unable to obtain pre-clearance',
  challengeTitle: 'One more step before you proceed...',
  hookMissing: 'Hook missing or not loaded',
  hookTestOk: 'Connection successful!',
  pushDenied: 'User denied permissions!',
  confirmDefault: 'Are you sure?',
  desktopUpdate: 'A new version of the desktop application is available.',
  noPermissionFor: (type: string) => `there is no permission for ${type}`,
  // Specific refusals (workspace.md §8: "no permission to create items, create views, update the
  // workspace, or add or remove reactions"), sent as the 403's message instead of `unauthorized`.
  noPermissionCreateItems: 'You have no permission to create items.',
  noPermissionCreateViews: 'You have no permission to create views.',
  noPermissionUpdateWorkspace: 'You have no permission to update the workspace.',
  noPermissionReactions: 'You have no permission to add or remove reactions.',
  // workspace.md §8 validation texts.
  memberNotInParentFolder: 'A member must be added to the parent folder first.',
  invitationInvalid: 'Please provide a valid email address and select a role.',
  fileTooLarge: (limitMb: number) => `The file is too large. It must be under ${limitMb} MB.`,
  storageFull: "The workspace's storage is full. Ask the workspace owner to free space or upgrade the plan.",
  // Pro-only views and referral (decision 0260).
  proViewNeedsUpgrade: 'This view is part of the Pro plan. Ask the workspace owner to upgrade the plan to use it.',
  referralEmailsInvalid: 'Enter emails separated by commas, spaces or new lines.',
  referralCodeTaken: 'This referral code is taken. Choose another.',
  referralCodeUnknown: 'This referral link is not valid.',
  // Subscriptions and plans (workspace.md §5, §8; server/billing).
  trialNotEligible: 'You are not eligible for a trial. A trial is not allowed if you are already on a paid plan.',
  trialNeedsPaidPlan: 'A trial is only for a paid plan.',
  trialAlreadyExtended: 'Your trial has already been extended.',
  trialExpired: 'Your trial has expired. Buy a plan to continue.',
  // An ended subscription (workspace.md §4 "expired", after "cancelled … then read-only"): every
  // write to its workspaces is refused with this (server/billing/read-only.ts, decision 0360).
  subscriptionExpired: 'Your subscription has expired. The workspace is read-only until a plan is bought.',
  planNotFound: 'Plan not found. Please contact support.',
  planNoLongerAvailable: 'This plan is no longer available.',
  // Payments (server/billing/payments, decision 0250).
  cardDeclined: 'Your card was declined.',
  cardInsufficientFunds: 'Your card has insufficient funds.',
  cardExpired: 'Your card has expired.',
  cardIncorrectCvc: 'Your card’s security code is incorrect.',
  cardTestOnly: 'This server’s payment provider takes test cards only, such as 4242 4242 4242 4242.',
  cardProcessingError: 'The payment could not be processed. Try again in a moment.',
  cardSetupIncomplete: 'The card was not entered on the payment page.',
  cardSetupUnsupported: 'This server takes cards in its own form.',
  cardRequired: 'Choose a card to pay with.',
  planNotUpgradable: 'Your plan cannot be changed to this plan.',
  alreadyOnPlan: 'You are already on this plan.',
  couponInvalid: 'This coupon is not valid.',
  couponUsed: 'You have already used this coupon.',
  currencyFixed: 'A running subscription keeps its currency.',
  paymentInProgress: 'A payment for this subscription is in progress. Try again in a moment.',
  buyFreePlan: 'The free plan is not bought: cancel the subscription instead.',
  // Lifetime deals, add-ons, cancellation (server/billing, decision 0255).
  ltdCodeUnknown: 'This lifetime-deal code is not valid.',
  ltdCodeUsed: 'This lifetime-deal code has already been used.',
  addonsNotAllowed: 'This subscription cannot get add-ons. Add-ons are for lifetime-deal subscriptions.',
  addonUnknown: 'This add-on is not offered.',
  cancelReasonRequired: 'Select at least one reason for leaving.',
  nothingToCancel: 'This subscription has nothing to cancel.',
  alreadyCancelled: 'This subscription is already cancelled.',
  cancelCouponUsed: 'You have already used a cancellation offer.',
  cancelOfferNotApplicable: 'This offer does not apply to this subscription.',
} as const;
