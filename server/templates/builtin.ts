import { contentCounts, type TemplateContent, type TemplateSummary } from '../../schema/templates';
import projectRoadmap from './builtin/project-roadmap.json';
import bugTracker from './builtin/bug-tracker.json';
import crmPipeline from './builtin/crm-pipeline.json';
import contentCalendar from './builtin/content-calendar.json';
import hiringPipeline from './builtin/hiring-pipeline.json';
import okrs from './builtin/okrs.json';
import sprintPlanning from './builtin/sprint-planning.json';
import eventPlanning from './builtin/event-planning.json';
import productLaunch from './builtin/product-launch.json';
import employeeOnboarding from './builtin/employee-onboarding.json';
import customerSupport from './builtin/customer-support.json';
import personalTasks from './builtin/personal-tasks.json';
import inventory from './builtin/inventory.json';

/**
 * The built-in gallery (issue #16): templates shipped with the app as data files
 * (server/templates/builtin/*.json). A file names its attributes (`a_…` ids that views refer to),
 * its views and its example items; `builtinContent` turns it into a template content with keys
 * for every record. Names and descriptions are English data; the app shows them translated by id.
 */

export interface BuiltinFile {
  id: string;
  name: string;
  description: string;
  tags: string[];
  color: string;
  attributes: { id: string; name: string; kind: string; settings: Record<string, unknown> }[];
  views: { name: string; kind: string; settings: Record<string, unknown> }[];
  items: { name: string; values: Record<string, unknown> }[];
  /** Automations of the template (decision 0226): they name attributes and options by the file's ids, and no people. */
  automations?: { name: string; trigger: Record<string, unknown>; actions: Record<string, unknown>[] }[];
}

export const BUILTIN_FILES: readonly BuiltinFile[] = [
  projectRoadmap,
  bugTracker,
  crmPipeline,
  contentCalendar,
  hiringPipeline,
  okrs,
  sprintPlanning,
  eventPlanning,
  productLaunch,
  employeeOnboarding,
  customerSupport,
  personalTasks,
  inventory,
] as BuiltinFile[];

const ROOT = 'root';

export function builtinContent(file: BuiltinFile): TemplateContent {
  return {
    root_id: ROOT,
    folders: [{ id: ROOT, parent_id: null, name: file.name, position: 0 }],
    attributes: file.attributes.map((a, index) => ({ id: a.id, folder_id: ROOT, name: a.name, kind: a.kind, position: index + 1, settings: a.settings as TemplateContent['attributes'][number]['settings'] })),
    views: file.views.map((v, index) => ({ id: `v${index + 1}`, folder_id: ROOT, name: v.name, kind: v.kind, position: index, settings: v.settings as TemplateContent['views'][number]['settings'] })),
    items: file.items.map((item, index) => ({ id: `i${index + 1}`, folder_id: ROOT, name: item.name, position: index + 1, values: item.values as TemplateContent['items'][number]['values'] })),
    automations: (file.automations ?? []).map((a, index) => ({ id: `au${index + 1}`, name: a.name, enabled: true, trigger: a.trigger as Record<string, never>, conditions: [], match: 'all' as const, actions: a.actions as Record<string, never>[], position: index + 1 })),
  };
}

export function builtinSummary(file: BuiltinFile): TemplateSummary {
  return {
    id: file.id,
    builtin: true,
    name: file.name,
    description: file.description,
    cover_url: null,
    color: file.color,
    tags: file.tags,
    owner_id: null,
    owner_name: null,
    with_items: true,
    shared_team_ids: [],
    link_shared: true,
    counts: contentCounts(builtinContent(file)),
    created_at: null,
    updated_at: null,
  };
}

export function findBuiltin(id: string): BuiltinFile | undefined {
  return BUILTIN_FILES.find((file) => file.id === id);
}
