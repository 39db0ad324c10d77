import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { i18n } from '@lingui/core';
import { Messages } from '../../../schema/messages';
import { ApiRequestError } from '../../api/client';
import { showApiError } from '../../api/handle-error';
import { toast } from '../../ui/toast-store';

/** The server's refusals of lifetime deals, add-ons and cancellation (schema/messages.ts) in the user's language. */
const refusals = new Map<string, MessageDescriptor>([
  [Messages.ltdCodeUnknown, msg`This lifetime-deal code is not valid.`],
  [Messages.ltdCodeUsed, msg`This lifetime-deal code has already been used.`],
  [Messages.addonsNotAllowed, msg`This subscription cannot get add-ons. Add-ons are for lifetime-deal subscriptions.`],
  [Messages.addonUnknown, msg`This add-on is not offered.`],
  [Messages.cancelReasonRequired, msg`Select at least one reason for leaving.`],
  [Messages.nothingToCancel, msg`This subscription has nothing to cancel.`],
  [Messages.alreadyCancelled, msg`This subscription is already cancelled.`],
  [Messages.cancelCouponUsed, msg`You have already used a cancellation offer.`],
  [Messages.cancelOfferNotApplicable, msg`This offer does not apply to this subscription.`],
  [Messages.trialNotEligible, msg`You are not eligible for a trial. A trial is not allowed if you are already on a paid plan.`],
  [Messages.trialAlreadyExtended, msg`Your trial has already been extended.`],
  [Messages.planNotFound, msg`Plan not found. Please contact support.`],
  [Messages.planNoLongerAvailable, msg`This plan is no longer available.`],
]);

/** The refusal's text in the user's language, or null when it is not one of these. */
export function refusalText(error: unknown): string | null {
  const text = error instanceof ApiRequestError ? error.body?.message : undefined;
  const known = text ? refusals.get(text) : undefined;
  return known ? i18n._(known) : null;
}

/** Shows a refusal as an error toast (a known one translated, others as the app shows API errors). */
export function showRefusal(error: unknown): void {
  const text = refusalText(error);
  if (text) toast.show(text, { kind: 'error' });
  else showApiError(error);
}
