import { useEffect, useId, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { FORM_FIELD_KINDS, FORM_TEXT_MAX, resolveViewSettings, type FormField } from '../../../schema/views';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import { useChangeView } from '../parts/use-change-view';
import type { ViewProps } from '../parts/view-props';
import { addField, changeField, formLink, moveField, removeField } from './form-draft';
import './form-builder.css';

/**
 * The Form view (issue #13, decision 0130): builds the public form of /form/{view id} over the
 * board's attributes: which questions, in which order, their labels, help texts and "required",
 * the folder answers go into, the texts around it, and whether it accepts answers at all. The
 * switch saves at once; the rest is a draft saved with "Save form". Everything is a native
 * control (Tab, Space, Enter), and reordering is "Move up" / "Move down" buttons.
 */
export default function FormBuilderView({ folder, view }: ViewProps) {
  const { t } = useLingui();
  const id = useId();
  const board = useBoard();
  const change = useChangeView(folder, view);
  const settingsKey = JSON.stringify(view.record?.settings ?? {});
  const saved = useMemo(
    () => resolveViewSettings('form', view.record?.settings ?? {}, board.attributes),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [settingsKey, board.attributes],
  );
  const [draft, setDraft] = useState(saved);
  const [dirty, setDirty] = useState(false);
  // Someone else's save (or this one coming back) replaces the draft unless it holds edits.
  useEffect(() => {
    if (!dirty) setDraft(saved);
  }, [saved, dirty]);

  const canEdit = !board.readOnly && board.can('CUSTOMIZE_VIEW', folder.id);
  const byId = useMemo(() => new Map(board.attributes.map((a) => [a.id, a])), [board.attributes]);
  const askable = board.attributes.filter((a) => (FORM_FIELD_KINDS as readonly string[]).includes(a.kind) && !draft.fields.some((f) => f.attribute_id === a.id));
  const formId = view.record?.id ?? '';
  const link = formLink(window.location.origin, formId);

  const edit = (patch: Partial<typeof draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setDirty(true);
  };
  const setFields = (fields: FormField[]) => edit({ fields });

  const save = async () => {
    const ok = await change({ title: draft.title, description: draft.description, confirmation: draft.confirmation, target_folder_id: draft.target_folder_id, fields: draft.fields });
    if (ok) {
      setDirty(false);
      toast.show(t`Form saved`);
    }
  };
  // The switch shows the choice at once; the saved view catches up through the replica.
  const [enabledShown, setEnabledShown] = useState<boolean | null>(null);
  useEffect(() => {
    if (enabledShown === saved.enabled) setEnabledShown(null);
  }, [enabledShown, saved.enabled]);
  const enabled = enabledShown ?? saved.enabled;
  const toggle = async (next: boolean) => {
    setEnabledShown(next);
    if (await change({ enabled: next })) toast.show(next ? t`The form accepts answers` : t`The form is turned off`);
    else setEnabledShown(null);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast.show(t`Link copied`);
    } catch {
      toast.show(t`Copy the link from the field.`, { kind: 'error' });
    }
  };

  return (
    <div className="form-builder" data-testid="form-builder">
      <section className="form-builder__status" aria-labelledby={`${id}-status`}>
        <h3 id={`${id}-status`} className="form-builder__heading">
          <Trans>Public form</Trans>
        </h3>
        <label className="inline-field form-builder__switch">
          <input type="checkbox" role="switch" checked={enabled} disabled={!canEdit} onChange={(e) => void toggle(e.currentTarget.checked)} data-testid="form-enabled" />
          <Trans>Accept answers</Trans>
        </label>
        <p className="hint" aria-live="polite">
          {enabled ? <Trans>Anyone with the link can answer, without an account. Each answer becomes an item.</Trans> : <Trans>The form is off: visitors see that it does not accept answers.</Trans>}
        </p>
        <div className="form-builder__link">
          <label className="visually-hidden" htmlFor={`${id}-link`}>
            <Trans>Form link</Trans>
          </label>
          <input id={`${id}-link`} readOnly value={link} onFocus={(e) => e.currentTarget.select()} data-testid="form-link" />
          <Button size="sm" onClick={() => void copy()}>
            <Trans>Copy link</Trans>
          </Button>
          <a className="ui-button ui-button--ghost ui-button--sm" href={link} target="_blank" rel="noopener noreferrer">
            <Trans>Open the form</Trans>
          </a>
        </div>
      </section>

      <fieldset className="form-builder__texts" disabled={!canEdit}>
        <legend>
          <Trans>Texts</Trans>
        </legend>
        <label className="ui-field">
          <span className="ui-field__label">
            <Trans>Title</Trans>
          </span>
          <input value={draft.title} placeholder={view.record?.name ?? ''} maxLength={255} onChange={(e) => edit({ title: e.currentTarget.value })} data-testid="form-title" />
        </label>
        <label className="ui-field">
          <span className="ui-field__label">
            <Trans>Description</Trans>
          </span>
          <textarea value={draft.description} maxLength={FORM_TEXT_MAX} rows={3} onChange={(e) => edit({ description: e.currentTarget.value })} />
        </label>
        <label className="ui-field">
          <span className="ui-field__label">
            <Trans>Confirmation text</Trans>
          </span>
          <textarea value={draft.confirmation} maxLength={FORM_TEXT_MAX} rows={2} placeholder={t`Thank you! Your answer was sent.`} onChange={(e) => edit({ confirmation: e.currentTarget.value })} />
        </label>
        <label className="ui-field">
          <span className="ui-field__label">
            <Trans>New items go into</Trans>
          </span>
          <select value={draft.target_folder_id ?? ''} onChange={(e) => edit({ target_folder_id: e.currentTarget.value || null })} data-testid="form-target">
            <option value="">{t`This folder (${folder.name})`}</option>
            {board.folders
              .filter((f) => f.id !== folder.id)
              .map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
          </select>
        </label>
      </fieldset>

      <fieldset className="form-builder__fields" disabled={!canEdit}>
        <legend>
          <Trans>Questions</Trans>
        </legend>
        {draft.fields.length === 0 && (
          <p className="hint">
            <Trans>The form asks nothing yet. Add a question below.</Trans>
          </p>
        )}
        <ol className="form-builder__list">
          {draft.fields.map((field, index) => {
            const attribute = byId.get(field.attribute_id);
            const name = attribute?.name ?? '';
            return (
              <li key={field.attribute_id} className="form-builder__field" data-testid="form-field" data-attribute-id={field.attribute_id}>
                <div className="form-builder__field-head">
                  <span className="form-builder__field-name">{name}</span>
                  <div className="form-builder__field-actions">
                    <Button size="sm" variant="ghost" disabled={index === 0} onClick={() => setFields(moveField(draft.fields, index, -1))} aria-label={t`Move ${name} up`}>
                      <Trans>Up</Trans>
                    </Button>
                    <Button size="sm" variant="ghost" disabled={index === draft.fields.length - 1} onClick={() => setFields(moveField(draft.fields, index, 1))} aria-label={t`Move ${name} down`}>
                      <Trans>Down</Trans>
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setFields(removeField(draft.fields, field.attribute_id))} aria-label={t`Remove ${name} from the form`}>
                      <Trans>Remove</Trans>
                    </Button>
                  </div>
                </div>
                <div className="form-builder__field-body">
                  <label className="ui-field">
                    <span className="ui-field__label">
                      <Trans>Label</Trans>
                    </span>
                    <input value={field.label} placeholder={name} maxLength={255} onChange={(e) => setFields(changeField(draft.fields, field.attribute_id, { label: e.currentTarget.value }))} />
                  </label>
                  <label className="ui-field">
                    <span className="ui-field__label">
                      <Trans>Help text</Trans>
                    </span>
                    <input value={field.help} maxLength={FORM_TEXT_MAX} onChange={(e) => setFields(changeField(draft.fields, field.attribute_id, { help: e.currentTarget.value }))} />
                  </label>
                  <label className="inline-field">
                    <input type="checkbox" checked={field.required} onChange={(e) => setFields(changeField(draft.fields, field.attribute_id, { required: e.currentTarget.checked }))} />
                    <Trans>Required</Trans>
                  </label>
                </div>
              </li>
            );
          })}
        </ol>
        {askable.length > 0 && (
          <label className="ui-field form-builder__add">
            <span className="ui-field__label">
              <Trans>Add a question</Trans>
            </span>
            <select
              value=""
              onChange={(e) => {
                if (e.currentTarget.value) setFields(addField(draft.fields, e.currentTarget.value));
              }}
              data-testid="form-add"
            >
              <option value="">{t`Choose an attribute…`}</option>
              {askable.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <p className="hint">
          <Trans>Members and references are not asked in a public form: choosing them would show visitors your people and items.</Trans>
        </p>
      </fieldset>

      {canEdit && (
        <div className="form-builder__save">
          <Button variant="primary" disabled={!dirty} onClick={() => void save()} data-testid="form-save">
            <Trans>Save form</Trans>
          </Button>
          {dirty && (
            <span className="hint">
              <Trans>Unsaved changes</Trans>
            </span>
          )}
        </div>
      )}
    </div>
  );
}
