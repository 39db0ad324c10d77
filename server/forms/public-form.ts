import type { PublicField, PublicForm } from '../../schema/public-form';
import type { LoadedForm } from './load';

export function publicFormOf(form: LoadedForm, sitekey: string | null): PublicForm {
  const fields: PublicField[] = [];
  for (const field of form.settings.fields) {
    const attribute = form.attributes.get(field.attribute_id);
    if (!attribute) continue;
    const settings = (attribute.settings ?? {}) as { options?: unknown; multiple?: unknown; withTime?: unknown };
    const out: PublicField = { attribute_id: field.attribute_id, kind: attribute.kind, label: field.label || attribute.name, help: field.help, required: field.required };
    if ((attribute.kind === 'status' || attribute.kind === 'label') && Array.isArray(settings.options)) {
      out.options = settings.options
        .filter((o): o is { id: string; name?: unknown; color?: unknown; textColor?: unknown } => !!o && typeof (o as { id?: unknown }).id === 'string')
        .map((o) => ({ id: o.id, name: String(o.name ?? ''), ...(typeof o.color === 'string' ? { color: o.color } : {}), ...(typeof o.textColor === 'string' ? { textColor: o.textColor } : {}) }));
    }
    if (attribute.kind === 'label') out.multiple = settings.multiple === true;
    if (attribute.kind === 'date' || attribute.kind === 'date-range') out.with_time = settings.withTime === true;
    fields.push(out);
  }
  return { id: form.id, title: form.settings.title || form.name, description: form.settings.description, fields, bot_check_sitekey: sitekey };
}
