import { describe, expect, it } from 'vitest';
import { BUILTIN_FILES, builtinContent } from '../../server/templates/builtin';
import { templateContent } from '../../schema/templates';
import { actionSchema, isCompleteAutomation, triggerSchema } from '../../schema/automations';

/**
 * The built-in gallery's automations (decision 0226): each is a complete automation (the same
 * rules the builder and the server apply), names attributes of its own template and options they
 * have, and names nobody (so a board made from it gets it switched on).
 */
describe('built-in template automations', () => {
  const withAutomations = BUILTIN_FILES.filter((f) => (f.automations ?? []).length > 0);

  it('ships automations in at least five templates', () => {
    expect(withAutomations.length).toBeGreaterThanOrEqual(5);
  });

  it.each(withAutomations.map((f) => [f.id, f] as const))('%s: valid, complete, about its own attributes and options', (_id, file) => {
    const content = builtinContent(file);
    expect(templateContent.safeParse(content).success).toBe(true);
    const attributes = new Map(content.attributes.map((a) => [a.id, a]));
    for (const automation of content.automations ?? []) {
      expect(triggerSchema.safeParse(automation.trigger).success, automation.name).toBe(true);
      for (const action of automation.actions) expect(actionSchema.safeParse(action).success, automation.name).toBe(true);
      expect(isCompleteAutomation({ trigger: automation.trigger as never, actions: automation.actions as never, conditions: [] }), automation.name).toBe(true);
      const named = [automation.trigger, ...automation.actions].map((part) => (part as { attribute_id?: string } | null)?.attribute_id).filter((id): id is string => !!id);
      for (const id of named) expect(attributes.has(id), `${automation.name}: ${id}`).toBe(true);
      // An option named by a trigger or a set_value is one of the attribute's.
      for (const part of [automation.trigger, ...automation.actions] as { attribute_id?: string; to?: unknown; value?: unknown }[]) {
        const attribute = part?.attribute_id ? attributes.get(part.attribute_id) : undefined;
        const options = (attribute?.settings as { options?: { id: string }[] } | undefined)?.options;
        const wanted = part?.to ?? part?.value;
        if (options && typeof wanted === 'string') expect(options.map((o) => o.id), `${automation.name}: ${wanted}`).toContain(wanted);
      }
      expect(JSON.stringify(automation)).not.toMatch(/"user_ids"|"url"/);
    }
  });
});
