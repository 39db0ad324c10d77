import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/**
 * Routes whose feature arrives with a later issue (billing #18, templates and imports #16, white
 * label and single sign-on #18, forms and published documents #13). Until then each shows what
 * will be there and a way on — never "Nothing here yet" (issue #17 part 1).
 */

export type LaterTarget = 'home' | 'workspace' | 'profile' | 'security' | 'create-board' | 'login' | 'members';

export interface LaterFeature {
  /** What the screen will be for, one paragraph. */
  text: MessageDescriptor;
  /** What it will hold. */
  points: MessageDescriptor[];
  /** Where to go meanwhile, and the link's words. */
  target: LaterTarget;
  action: MessageDescriptor;
}

const billing: LaterFeature = {
  text: msg`Plans, trials and payments are managed here once billing opens. Until then every workspace runs on its current plan, and nothing is charged.`,
  points: [msg`Compare plans and upgrade a workspace`, msg`Add-ons such as more storage or automation runs`, msg`Invoices and payment methods`],
  target: 'home',
  action: msg`Back to your workspaces`,
};

const templates: LaterFeature = {
  text: msg`Templates start a board with its columns, views and example items already set up. The gallery opens with a later release; meanwhile start from a blank board, which takes a few seconds.`,
  points: [msg`Ready-made boards for projects, bugs, sales and hiring`, msg`Your own templates, saved from any board`, msg`Templates shared with your team`],
  target: 'create-board',
  action: msg`Create a blank board`,
};

const trello: LaterFeature = {
  text: msg`Importing from Trello copies your boards, lists, cards, labels and members into Cairn. It opens with a later release.`,
  points: [msg`Trello lists become a Status column`, msg`Cards keep their labels, due dates and comments`],
  target: 'create-board',
  action: msg`Create a board instead`,
};

const whiteLabel: LaterFeature = {
  text: msg`White label puts your own name, logo, colours and domain on the workspace. It comes with the Business plan in a later release.`,
  points: [msg`Your logo and colours for every member`, msg`Your own domain`],
  target: 'workspace',
  action: msg`Back to the workspace`,
};

const forms: LaterFeature = {
  text: msg`Forms collect answers straight into a board, and published documents share a board's pages with anyone who has the link. Both arrive in a later release.`,
  points: [msg`Anyone with the link fills in a form; each answer becomes an item`, msg`Published pages are read-only and always up to date`],
  target: 'home',
  action: msg`Go to Cairn`,
};

export const LATER_FEATURES: Record<string, LaterFeature> = {
  checkout: billing,
  'activate-ltd': billing,
  trial: billing,
  'profile.billing': billing,
  'subscription.buy-addon': billing,
  'subscription.upgrade': billing,
  'subscription.redirect': billing,
  'templates.home': templates,
  'templates.tag': templates,
  'templates.search': templates,
  'templates.landing': templates,
  'custom-templates': templates,
  'custom-templates.shared': templates,
  'custom-templates.templates.edit': templates,
  'custom-templates.templates.landing': templates,
  'forward.template': templates,
  'trello-import': trello,
  'trello-import-board': trello,
  'extract-trello-token': trello,
  'team.whitelabel': whiteLabel,
  'forward.whitelabel': whiteLabel,
  form: forms,
  'published-document': forms,
  'published-file': forms,
  'shared-document-item': forms,
};
