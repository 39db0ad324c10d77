import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { TemplateMessages, type TemplateSummary } from '../../schema/templates';

/**
 * What the template screens show in the user's language: the built-in templates' names and
 * descriptions (by id; the server's data files are English), the gallery's tags, the kinds of
 * views and the API's template messages.
 */

const BUILTIN: Record<string, [MessageDescriptor, MessageDescriptor]> = {
  'project-roadmap': [msg`Project roadmap`, msg`Plan initiatives by quarter, see them on a timeline and track where each one stands.`],
  'bug-tracker': [msg`Bug tracker`, msg`Collect bug reports, triage them by severity and follow each fix to release.`],
  'crm-pipeline': [msg`CRM pipeline`, msg`Follow every deal from first contact to signature, with its value, contact and next step.`],
  'content-calendar': [msg`Content calendar`, msg`Plan posts, newsletters and videos on a calendar and move each piece from idea to published.`],
  'hiring-pipeline': [msg`Hiring pipeline`, msg`Track candidates through each stage, with their role, interview dates and ratings.`],
  okrs: [msg`OKRs`, msg`Set objectives and key results for the quarter and check progress and confidence every week.`],
  'sprint-planning': [msg`Sprint planning`, msg`Estimate stories, plan them into sprints and follow the sprint on a board.`],
  'event-planning': [msg`Event planning`, msg`Organise an event: venue, speakers, catering and promotion, with budgets and deadlines.`],
  'product-launch': [msg`Product launch`, msg`Coordinate a launch across product, marketing and support on one timeline.`],
  'employee-onboarding': [msg`Employee onboarding`, msg`A checklist that takes a new colleague from the offer to the end of the first month.`],
  'customer-support': [msg`Customer support`, msg`Handle customer requests from every channel by priority and keep response times short.`],
  'personal-tasks': [msg`Personal tasks`, msg`A simple to-do list with priorities, due dates and contexts, for yourself.`],
  inventory: [msg`Inventory tracker`, msg`Keep stock levels, suppliers and reorder dates of your products or equipment in one place.`],
};

export function templateName(i18n: I18n, t: Pick<TemplateSummary, 'id' | 'builtin' | 'name'>): string {
  const known = t.builtin ? BUILTIN[t.id] : undefined;
  return known ? i18n._(known[0]) : t.name;
}

export function templateDescription(i18n: I18n, t: Pick<TemplateSummary, 'id' | 'builtin' | 'description'>): string {
  const known = t.builtin ? BUILTIN[t.id] : undefined;
  return known ? i18n._(known[1]) : t.description;
}

const TAGS: Record<string, MessageDescriptor> = {
  'project-management': msg`Project management`,
  software: msg`Software`,
  sales: msg`Sales`,
  marketing: msg`Marketing`,
  hr: msg`People and hiring`,
  operations: msg`Operations`,
  planning: msg`Planning`,
  personal: msg`Personal`,
  custom: msg`Custom`,
};

/** A tag's label: the gallery's own tags translated, a user's tag as written. */
export function tagLabel(i18n: I18n, tag: string): string {
  const known = TAGS[tag];
  return known ? i18n._(known) : tag;
}

export const GALLERY_TAGS = Object.keys(TAGS).filter((tag) => tag !== 'custom');

const VIEW_KINDS: Record<string, MessageDescriptor> = {
  table: msg`Table`,
  column: msg`Column`,
  calendar: msg`Calendar`,
  gantt: msg`Gantt`,
  list: msg`List`,
  chart: msg`Chart`,
  form: msg`Form`,
  docs: msg`Docs`,
};

export function viewKindLabel(i18n: I18n, kind: string): string {
  const known = VIEW_KINDS[kind];
  return known ? i18n._(known) : kind;
}

const MESSAGES: Record<string, MessageDescriptor> = {
  [TemplateMessages.notAvailable]: msg`This template is not available or has not been shared with you.`,
  [TemplateMessages.needsWorkspace]: msg`A template needs at least one workspace.`,
};

/** An API message about templates in the user's language (others as sent). */
export function templateMessage(i18n: I18n, text: string): string {
  for (const [english, descriptor] of Object.entries(MESSAGES)) if (text.includes(english)) return i18n._(descriptor);
  return text;
}
