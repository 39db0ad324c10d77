import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { i18n } from '@lingui/core';
import { Messages } from '../../schema/messages';

/**
 * The catalogue texts of schema/messages.ts as Lingui messages, so a message the server sends in
 * English is shown in the user's language. Unknown server texts are shown as sent.
 */
const known = new Map<string, MessageDescriptor>([
  [Messages.unauthorized, msg`This action is unauthorized.`],
  [Messages.notFound, msg`Not Found`],
  [Messages.conflict, msg`Updates overlapped, causing a hiccup. Please verify the latest data is correct.`],
  [Messages.somethingWentWrong, msg`Something Went Wrong`],
  [Messages.emailNotVerified, msg`Your email address is not verified.`],
  [Messages.offlineAction, msg`This action is not available when you are offline.`],
  [Messages.offlineFeature, msg`This feature is not available when offline`],
  [Messages.previewMode, msg`This feature is not available in preview mode.`],
  [Messages.challengeFailed, msg`Unable to obtain pre-clearance`],
  [Messages.confirmDefault, msg`Are you sure?`],
  [Messages.storageFull, msg`The workspace's storage is full. Ask the workspace owner to free space or upgrade the plan.`],
  [Messages.proViewNeedsUpgrade, msg`This view is part of the Pro plan. Ask the workspace owner to upgrade the plan to use it.`],
  [Messages.referralEmailsInvalid, msg`Enter emails separated by commas, spaces or new lines.`],
  [Messages.referralCodeTaken, msg`This referral code is taken. Choose another.`],
  [Messages.referralCodeUnknown, msg`This referral link is not valid.`],
  [Messages.noPermissionCreateItems, msg`You have no permission to create items.`],
  [Messages.noPermissionCreateViews, msg`You have no permission to create views.`],
  [Messages.noPermissionUpdateWorkspace, msg`You have no permission to update the workspace.`],
  [Messages.noPermissionReactions, msg`You have no permission to add or remove reactions.`],
  [Messages.memberNotInParentFolder, msg`A member must be added to the parent folder first.`],
  [Messages.pushDenied, msg`User denied permissions!`],
  [Messages.trialExpired, msg`Your trial has expired. Buy a plan to continue.`],
  [Messages.subscriptionExpired, msg`Your subscription has expired. The workspace is read-only until a plan is bought.`],
]);

/** The prefix of 422 messages; the rest (field details from the server) stays as sent. */
const validationError = msg`Validation Error: {details}`;

export function translateMessage(text: string): string {
  if (text.startsWith(Messages.validationPrefix)) {
    const withDetails = { ...validationError, values: { details: text.slice(Messages.validationPrefix.length) } };
    return i18n._(withDetails);
  }
  const descriptor = known.get(text);
  return descriptor ? i18n._(descriptor) : text;
}
