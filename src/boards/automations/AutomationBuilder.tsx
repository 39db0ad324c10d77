import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  automationProblems,
  SETTABLE_KINDS,
  WATCHED_KINDS,
  type ActionType,
  type TriggerType,
} from '../../../schema/automations';
import { settingsOf } from '../../../schema/attributes';
import { FILTER_OPS } from '../../../schema/views';
import { useBoard } from '../BoardContext';
import { useAttributes, useFolders, useKnownBoards, type Attribute } from '../store/live';
import type { AutomationDraft } from './automations-store';
import { useDescribe } from './use-describe';
import { useUserZone } from './user-zone';

/**
 * The automation builder: a sentence with blanks ("When [Status] changes to [Done], then [move
 * item to] [Archive]"). Every part is a plain select or input, so it works by keyboard and reads
 * right to left in Arabic. An incomplete automation may be saved: it is stored switched off and
 * says "The automation is not complete or not valid".
 */

type Part = Record<string, unknown>;

export function AutomationBuilder({ initial, onSave, onCancel }: { initial: AutomationDraft; onSave(draft: AutomationDraft): void; onCancel(): void }) {
  const { t } = useLingui();
  const board = useBoard();
  const describe = useDescribe();
  const [draft, setDraft] = useState<AutomationDraft>(initial);
  const facts = useMemo(
    () => ({ attributes: new Map(board.attributes.filter((a) => !a.deleted_at).map((a) => [a.id, a])), folderIds: new Set(board.folders.map((f) => f.id)) }),
    [board.attributes, board.folders],
  );
  const problems = automationProblems(draft, facts);
  const valid = problems.length === 0;
  const trigger = (draft.trigger ?? {}) as Part;
  const set = (patch: Partial<AutomationDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setTrigger = (patch: Part) => set({ trigger: { ...trigger, ...patch } as never });
  const setAction = (index: number, patch: Part | null) =>
    set({ actions: patch === null ? draft.actions.filter((_, i) => i !== index) : draft.actions.map((a, i) => (i === index ? ({ ...a, ...patch } as never) : a)) });
  const ofKinds = (kinds: readonly string[]) => board.attributes.filter((a) => !a.deleted_at && kinds.includes(a.kind));
  const zone = useUserZone();

  const triggerLabels: Record<TriggerType, string> = {
    item_created: t`an item is created`,
    value_changed: t`a value changes`,
    date_arrives: t`a date arrives`,
    comment_added: t`a comment is added`,
    button_clicked: t`a button is clicked`,
    item_moved: t`an item moves to a folder`,
  };
  const actionLabels: Record<ActionType, string> = {
    set_value: t`set a value`,
    assign: t`assign a person`,
    unassign: t`unassign a person`,
    move_to_folder: t`move item to a folder`,
    create_item: t`create an item`,
    add_comment: t`add a comment`,
    notify: t`notify people`,
    webhook: t`send to a webhook URL`,
  };

  const changeTriggerType = (type: string) => {
    if (!type) return set({ trigger: null });
    const first = (kinds: readonly string[]) => ofKinds(kinds)[0]?.id;
    if (type === 'value_changed') return set({ trigger: { type, attribute_id: first(WATCHED_KINDS) ?? '' } as never });
    if (type === 'date_arrives') return set({ trigger: { type, attribute_id: first(['date']) ?? '', time: '09:00', offset_days: 0, timezone: zone } as never });
    if (type === 'button_clicked') return set({ trigger: { type, attribute_id: first(['button']) ?? '' } as never });
    return set({ trigger: { type } as never });
  };

  return (
    <form
      className="automation-builder"
      data-testid="automation-builder"
      onSubmit={(e) => {
        e.preventDefault();
        onSave({ ...draft, name: draft.name.trim() || describe(draft), enabled: draft.enabled && valid });
      }}
    >
      <p className="automation-sentence" data-testid="automation-sentence">
        {describe(draft)}
      </p>

      <fieldset className="automation-part">
        <legend>
          <Trans>When</Trans>
        </legend>
        <select aria-label={t`Trigger`} data-testid="trigger-type" value={String(trigger.type ?? '')} onChange={(e) => changeTriggerType(e.target.value)}>
          <option value="">{t`choose…`}</option>
          {Object.entries(triggerLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {(trigger.type === 'value_changed' || trigger.type === 'date_arrives' || trigger.type === 'button_clicked') && (
          <AttributeSelect
            testId="trigger-attribute"
            attributes={ofKinds(trigger.type === 'value_changed' ? WATCHED_KINDS : trigger.type === 'date_arrives' ? ['date'] : ['button'])}
            value={String(trigger.attribute_id ?? '')}
            onChange={(id) => setTrigger({ attribute_id: id, ...(trigger.type === 'value_changed' ? { to: undefined } : {}) })}
          />
        )}
        {trigger.type === 'value_changed' && typeof trigger.attribute_id === 'string' && (
          <>
            <span>
              <Trans>changes to</Trans>
            </span>
            <ValueInput testId="trigger-to" attribute={board.attributes.find((a) => a.id === trigger.attribute_id)} value={trigger.to} anyLabel={t`any value`} onChange={(to) => setTrigger({ to })} />
          </>
        )}
        {trigger.type === 'date_arrives' && (
          <>
            <label>
              <Trans>days after the date</Trans>{' '}
              <input type="number" min={-365} max={365} value={Number(trigger.offset_days ?? 0)} onChange={(e) => setTrigger({ offset_days: Math.round(Number(e.target.value) || 0) })} />
            </label>
            <label>
              <Trans>at</Trans> <input type="time" value={String(trigger.time ?? '09:00')} onChange={(e) => setTrigger({ time: e.target.value || '09:00' })} />
            </label>
            <span className="automation-zone">{String(trigger.timezone ?? zone)}</span>
          </>
        )}
        {trigger.type === 'item_moved' && (
          <select aria-label={t`Folder`} value={String(trigger.folder_id ?? '')} onChange={(e) => setTrigger({ folder_id: e.target.value || null })}>
            <option value="">{t`any folder`}</option>
            {board.folders.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        )}
      </fieldset>

      <fieldset className="automation-part">
        <legend>
          <Trans>Only if</Trans>
        </legend>
        {draft.conditions.map((condition, index) => (
          <div className="automation-row" key={index}>
            <AttributeSelect attributes={board.attributes.filter((a) => !a.deleted_at && !['button', 'time-tracking'].includes(a.kind))} value={condition.attribute_id} onChange={(id) => set({ conditions: draft.conditions.map((c, i) => (i === index ? { ...c, attribute_id: id } : c)) })} />
            <select aria-label={t`Operator`} value={condition.op} onChange={(e) => set({ conditions: draft.conditions.map((c, i) => (i === index ? { ...c, op: e.target.value as never } : c)) })}>
              {/* The builder's value input takes one value: list and span operators are the views' filters'. */}
              {FILTER_OPS.filter((op) => op !== 'any-of' && op !== 'between').map((op) => (
                <option key={op} value={op}>
                  {opLabel(op, t)}
                </option>
              ))}
            </select>
            {!['empty', 'not-empty'].includes(condition.op) && (
              <ValueInput attribute={board.attributes.find((a) => a.id === condition.attribute_id)} value={condition.value} onChange={(value) => set({ conditions: draft.conditions.map((c, i) => (i === index ? { ...c, value: value as never } : c)) })} />
            )}
            <button type="button" className="link-button" onClick={() => set({ conditions: draft.conditions.filter((_, i) => i !== index) })}>
              <Trans>Remove</Trans>
            </button>
          </div>
        ))}
        <div className="automation-row">
          <button type="button" className="link-button" onClick={() => set({ conditions: [...draft.conditions, { attribute_id: board.attributes[0]?.id ?? 'name', op: 'is', value: '' }] })}>
            <Trans>Add a condition</Trans>
          </button>
          {draft.conditions.length > 1 && (
            <select aria-label={t`Match`} value={draft.match} onChange={(e) => set({ match: e.target.value as 'all' | 'any' })}>
              <option value="all">{t`all conditions`}</option>
              <option value="any">{t`any condition`}</option>
            </select>
          )}
        </div>
      </fieldset>

      <fieldset className="automation-part">
        <legend>
          <Trans>Then</Trans>
        </legend>
        {draft.actions.map((raw, index) => {
          const action = raw as Part;
          return (
            <div className="automation-row" key={index} data-testid="automation-action">
              <select aria-label={t`Action`} data-testid="action-type" value={String(action.type ?? '')} onChange={(e) => setAction(index, { ...emptyAction(e.target.value) })}>
                <option value="">{t`choose…`}</option>
                {Object.entries(actionLabels).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
              <ActionFields action={action} onChange={(patch) => setAction(index, patch)} ofKinds={ofKinds} />
              <button type="button" className="link-button" onClick={() => setAction(index, null)}>
                <Trans>Remove</Trans>
              </button>
            </div>
          );
        })}
        <button type="button" className="link-button" data-testid="add-action" onClick={() => set({ actions: [...draft.actions, {}] })}>
          <Trans>Add an action</Trans>
        </button>
      </fieldset>

      <label className="automation-name">
        <Trans>Name</Trans> <input value={draft.name} maxLength={255} placeholder={describe(draft)} onChange={(e) => set({ name: e.target.value })} />
      </label>
      <label className="automation-enabled">
        <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> <Trans>Switched on</Trans>
      </label>
      {!valid && (
        <p className="form-error" role="alert" data-testid="automation-invalid">
          {t`The automation is not complete or not valid.`}
        </p>
      )}
      <div className="automation-buttons">
        <button type="submit" className="primary-button" data-testid="automation-save">
          <Trans>Save</Trans>
        </button>
        <button type="button" className="link-button" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </form>
  );
}

function opLabel(op: string, t: ReturnType<typeof useLingui>['t']): string {
  switch (op) {
    case 'is':
      return t`is`;
    case 'is-not':
      return t`is not`;
    case 'contains':
      return t`contains`;
    case 'not-contains':
      return t`does not contain`;
    case 'empty':
      return t`is empty`;
    case 'not-empty':
      return t`is not empty`;
    case 'gt':
      return t`is greater than`;
    default:
      return t`is less than`;
  }
}

function emptyAction(type: string): Part {
  return type ? { type } : {};
}

function AttributeSelect({ attributes, value, onChange, testId }: { attributes: Attribute[]; value: string; onChange(id: string): void; testId?: string }) {
  const { t } = useLingui();
  return (
    <select aria-label={t`Attribute`} data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{t`choose…`}</option>
      {attributes.map((a) => (
        <option key={a.id} value={a.id}>
          {a.name}
        </option>
      ))}
    </select>
  );
}

/** A value for an attribute: its options, a checkbox, a date, members, or text. */
function ValueInput({ attribute, value, onChange, anyLabel, testId }: { attribute: Attribute | undefined; value: unknown; onChange(value: unknown): void; anyLabel?: string; testId?: string }) {
  const { t } = useLingui();
  const board = useBoard();
  const blank = anyLabel ?? t`nothing`;
  if (!attribute) return <input aria-label={t`Value`} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />;
  switch (attribute.kind) {
    case 'status':
    case 'label': {
      const options = settingsOf(attribute.kind, attribute.settings).options;
      return (
        <select aria-label={t`Value`} data-testid={testId} value={value === undefined || value === null ? '' : String(value)} onChange={(e) => onChange(e.target.value || (anyLabel ? undefined : null))}>
          <option value="">{blank}</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      );
    }
    case 'checkbox':
      return (
        <select aria-label={t`Value`} data-testid={testId} value={value === undefined ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value === 'true')}>
          {anyLabel && <option value="">{anyLabel}</option>}
          <option value="true">{t`checked`}</option>
          <option value="false">{t`unchecked`}</option>
        </select>
      );
    case 'members': {
      const members = board.info?.members ?? [];
      const chosen = Array.isArray(value) ? value[0] : value;
      return (
        <select aria-label={t`Value`} data-testid={testId} value={chosen === undefined || chosen === null ? '' : String(chosen)} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : anyLabel ? undefined : null)}>
          <option value="">{blank}</option>
          {members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      );
    }
    case 'date':
      return <input type="date" aria-label={t`Value`} data-testid={testId} value={typeof value === 'string' ? value.slice(0, 10) : ''} onChange={(e) => onChange(e.target.value || (anyLabel ? undefined : null))} />;
    case 'number':
      return <input type="number" aria-label={t`Value`} value={typeof value === 'number' ? value : ''} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))} />;
    default:
      return <input aria-label={t`Value`} value={String(value ?? '')} onChange={(e) => onChange(e.target.value || (anyLabel ? undefined : null))} />;
  }
}

function ActionFields({ action, onChange, ofKinds }: { action: Part; onChange(patch: Part): void; ofKinds(kinds: readonly string[]): Attribute[] }) {
  const { t } = useLingui();
  const board = useBoard();
  const members = board.info?.members ?? [];
  const attribute = board.attributes.find((a) => a.id === action.attribute_id);
  const memberPicker = (
    <select
      aria-label={t`People`}
      multiple
      value={((action.user_ids as number[] | undefined) ?? []).map(String)}
      onChange={(e) => onChange({ user_ids: [...e.target.selectedOptions].map((o) => Number(o.value)) })}
    >
      {members.map((m) => (
        <option key={m.id} value={m.id}>
          {m.name}
        </option>
      ))}
    </select>
  );
  switch (action.type) {
    case 'set_value':
      return (
        <>
          <AttributeSelect attributes={ofKinds(SETTABLE_KINDS)} value={String(action.attribute_id ?? '')} onChange={(id) => onChange({ attribute_id: id, value: null, relative_days: undefined })} />
          <span>
            <Trans>to</Trans>
          </span>
          {attribute?.kind === 'date' && (
            <label>
              <input type="checkbox" checked={action.relative_days !== undefined} onChange={(e) => onChange({ relative_days: e.target.checked ? 3 : undefined, value: e.target.checked ? undefined : null })} /> <Trans>today +</Trans>
            </label>
          )}
          {action.relative_days !== undefined ? (
            <label>
              <input type="number" aria-label={t`Days`} value={Number(action.relative_days)} onChange={(e) => onChange({ relative_days: Math.round(Number(e.target.value) || 0) })} /> <Trans>days</Trans>
            </label>
          ) : (
            <ValueInput attribute={attribute} value={action.value} onChange={(value) => onChange({ value: attribute?.kind === 'members' && typeof value === 'number' ? [value] : value })} />
          )}
        </>
      );
    case 'assign':
    case 'unassign':
      return (
        <>
          <AttributeSelect attributes={ofKinds(['members'])} value={String(action.attribute_id ?? '')} onChange={(id) => onChange({ attribute_id: id })} />
          {memberPicker}
        </>
      );
    case 'move_to_folder':
      return (
        <select aria-label={t`Folder`} data-testid="action-folder" value={String(action.folder_id ?? '')} onChange={(e) => onChange({ folder_id: e.target.value })}>
          <option value="">{t`choose…`}</option>
          {board.folders.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      );
    case 'create_item':
      return <CreateItemFields action={action} onChange={onChange} />;
    case 'add_comment':
      return <input aria-label={t`Comment`} placeholder="{{item.name}}" value={String(action.text ?? '')} onChange={(e) => onChange({ text: e.target.value })} />;
    case 'notify':
      return (
        <>
          {memberPicker}
          <select aria-label={t`Where`} value={String(action.on ?? 'item')} onChange={(e) => onChange({ on: e.target.value })}>
            <option value="item">{t`about the item`}</option>
            <option value="board">{t`about the board`}</option>
          </select>
          <input aria-label={t`Message`} value={String(action.message ?? '')} onChange={(e) => onChange({ message: e.target.value })} />
        </>
      );
    case 'webhook':
      return <input type="url" aria-label={t`Webhook URL`} placeholder="https://" value={String(action.url ?? '')} onChange={(e) => onChange({ url: e.target.value })} />;
    default:
      return null;
  }
}

/** Kinds whose value a new item gets from a template ({{item.name}}, {{board.name}}, …). */
const TEMPLATE_KINDS = ['text', 'long-text', 'email', 'link'];

/**
 * "Create an item" in this board or another board of the workspace this device knows: its folder
 * (the board's own folders as far as they are on this device; the board itself always), the new
 * item's name and text values from templates.
 */
function CreateItemFields({ action, onChange }: { action: Part; onChange(patch: Part): void }) {
  const { t } = useLingui();
  const board = useBoard();
  const target = String(action.board_id ?? board.boardId);
  const boards = useKnownBoards(board.teamId) ?? [];
  const otherFolders = useFolders(target === board.boardId ? null : target);
  const otherAttributes = useAttributes(target === board.boardId ? null : target);
  const folders = target === board.boardId ? board.folders : (otherFolders ?? boards.filter((b) => b.id === target));
  const attributes = (target === board.boardId ? board.attributes : (otherAttributes ?? [])).filter((a) => !a.deleted_at && TEMPLATE_KINDS.includes(a.kind));
  const values = ((action.values as { attribute_id: string; value: unknown }[] | undefined) ?? []).filter((v) => typeof v === 'object' && v !== null);
  const setValues = (next: { attribute_id: string; value: unknown }[]) => onChange({ values: next });
  const choices = [{ id: board.boardId, name: board.board.name }, ...boards.filter((b) => b.id !== board.boardId && !b.deleted_at).map((b) => ({ id: b.id, name: b.name }))];
  return (
    <>
      <select aria-label={t`Board`} data-testid="action-board" value={target} onChange={(e) => onChange({ board_id: e.target.value, folder_id: e.target.value, values: [] })}>
        {choices.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
      </select>
      <select aria-label={t`Folder`} data-testid="action-create-folder" value={String(action.folder_id ?? '')} onChange={(e) => onChange({ folder_id: e.target.value, board_id: target })}>
        <option value="">{t`choose…`}</option>
        {folders.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </select>
      <input aria-label={t`Name of the new item`} placeholder="{{item.name}}" value={String(action.name ?? '')} onChange={(e) => onChange({ name: e.target.value, board_id: target })} />
      {values.map((v, index) => (
        <span key={index} className="automation-row">
          <AttributeSelect attributes={attributes} value={v.attribute_id} onChange={(id) => setValues(values.map((x, i) => (i === index ? { ...x, attribute_id: id } : x)))} />
          <input aria-label={t`Value`} placeholder="{{item.name}}" value={String(v.value ?? '')} onChange={(e) => setValues(values.map((x, i) => (i === index ? { ...x, value: e.target.value } : x)))} />
          <button type="button" className="link-button" onClick={() => setValues(values.filter((_, i) => i !== index))}>
            <Trans>Remove</Trans>
          </button>
        </span>
      ))}
      {attributes.length > 0 && (
        <button type="button" className="link-button" onClick={() => setValues([...values, { attribute_id: attributes[0]!.id, value: '' }])}>
          <Trans>Add a value</Trans>
        </button>
      )}
    </>
  );
}
