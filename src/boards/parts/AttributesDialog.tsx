import { useState, type FormEvent } from 'react';
import { nanoid } from 'nanoid';
import { Trans, useLingui } from '@lingui/react/macro';
import { AttributeMessages, ATTRIBUTE_KINDS, attributeProblems, newLabel, settingsOf, type AttributeKind, type LabelOption } from '../../../schema/attributes';
import { LABEL_DEFAULT_TEXT_COLOR } from '../../../schema/constants';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { confirm } from '../../ui/confirm-store';
import { toast } from '../../ui/toast-store';
import { useBoard } from '../BoardContext';
import type { Attribute, Folder } from '../store/live';
import { moveColumn, orderedColumns } from '../model/columns';
import type { ShownView } from './FolderPane';
import { useChangeView } from './use-change-view';
import { useKindLabels } from './kind-labels';
import { DEFAULT_STATUS_OPTIONS } from '../../../schema/board-defaults';

/**
 * The board's attributes: add (name + kind, "an attribute with the same name and type already
 * exists"), rename, reorder and show/hide in this view, hide on the board, edit label/status
 * options, delete (to trash).
 */
export function AttributesDialog({ folder, view, onClose }: { folder: Folder; view: ShownView; onClose: () => void }) {
  const { t } = useLingui();
  const board = useBoard();
  const change = useChangeView(folder, view);
  const kindLabel = useKindLabels();
  const canManage = board.can('MANAGE_ATTRIBUTES', board.boardId);
  const columns = orderedColumns(board.attributes, view.settings, { includeHidden: true });
  const [editing, setEditing] = useState<Attribute | 'new' | null>(null);
  const hidden = new Set(view.settings.hidden_columns);
  const order = columns.filter((c) => c.kind !== 'primary').map((c) => c.id);

  return (
    <Modal open onClose={onClose} title={t`Attributes`} size="lg">
      <ul className="attribute-list" data-testid="attribute-list">
        {columns.map((attribute, index) => (
          <li key={attribute.id} data-attribute-id={attribute.id}>
            <label className="inline-field">
              <input
                type="checkbox"
                disabled={attribute.kind === 'primary'}
                checked={!hidden.has(attribute.id)}
                aria-label={t`Show ${attribute.name} in this view`}
                onChange={(e) => void change({ hidden_columns: e.target.checked ? [...hidden].filter((id) => id !== attribute.id) : [...hidden, attribute.id] })}
              />
              <span className="attribute-name">{attribute.name}</span>
              <small className="attribute-kind">{kindLabel(attribute.kind)}</small>
              {attribute.hidden && (
                <small className="attribute-hidden">
                  <Trans>hidden on the board</Trans>
                </small>
              )}
            </label>
            {attribute.kind !== 'primary' && (
              <span className="attribute-actions">
                <Button variant="ghost" size="sm" aria-label={t`Move ${attribute.name} up`} disabled={index <= 1} onClick={() => void change({ column_order: moveColumn(order, attribute.id, index - 2) })}>
                  ↑
                </Button>
                <Button variant="ghost" size="sm" aria-label={t`Move ${attribute.name} down`} disabled={index >= columns.length - 1} onClick={() => void change({ column_order: moveColumn(order, attribute.id, index) })}>
                  ↓
                </Button>
              </span>
            )}
            {canManage && (
              <span className="attribute-actions">
                <Button variant="ghost" size="sm" onClick={() => setEditing(attribute)}>
                  {t`Edit`}
                </Button>
                {attribute.kind !== 'primary' && (
                  <>
                    <Button variant="ghost" size="sm" onClick={() => void board.actions.updateAttribute(attribute, { hidden: !attribute.hidden }, attribute.hidden ? 'show attribute' : 'hide attribute')}>
                      {attribute.hidden ? t`Show on board` : t`Hide on board`}
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={async () => {
                        if (await confirm({ message: t`Move the attribute ${attribute.name} and its values to trash?`, danger: true })) await board.actions.deleteAttribute(attribute.id);
                      }}
                    >
                      {t`Delete`}
                    </Button>
                  </>
                )}
              </span>
            )}
          </li>
        ))}
      </ul>
      {canManage && (
        <Button onClick={() => setEditing('new')} data-testid="new-attribute">
          <Trans>New attribute</Trans>
        </Button>
      )}
      {editing && <AttributeEditor attribute={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {!canManage && (
        <p className="hint">
          <Trans>You may show, hide and reorder columns of this view; managing attributes needs permission.</Trans>
        </p>
      )}
    </Modal>
  );
}

const CREATABLE: AttributeKind[] = ATTRIBUTE_KINDS.filter((k) => k !== 'primary');

function AttributeEditor({ attribute, onClose }: { attribute: Attribute | null; onClose: () => void }) {
  const { t } = useLingui();
  const board = useBoard();
  const kindLabel = useKindLabels();
  const [name, setName] = useState(attribute?.name ?? '');
  const [kind, setKind] = useState<AttributeKind>((attribute?.kind as AttributeKind) ?? 'text');
  const initialOptions = kind === 'status' || kind === 'label' ? (settingsOf(kind, attribute?.settings).options as LabelOption[]) : [];
  const [options, setOptions] = useState<LabelOption[]>(initialOptions);
  const [multiple, setMultiple] = useState(Boolean((attribute?.settings as { multiple?: boolean } | undefined)?.multiple));
  const [prefix, setPrefix] = useState(String((attribute?.settings as { prefix?: string } | undefined)?.prefix ?? ''));
  const [url, setUrl] = useState(String((attribute?.settings as { url?: string } | undefined)?.url ?? ''));
  const [error, setError] = useState<string | null>(null);
  const hasOptions = kind === 'status' || kind === 'label';
  const statusNames: Record<string, string> = { todo: t`To do`, doing: t`In progress`, done: t`Done`, stuck: t`Stuck` };
  const defaultStatuses = (): LabelOption[] => DEFAULT_STATUS_OPTIONS.map((o) => ({ ...o, name: statusNames[o.id] ?? o.name, done: o.id === 'done' }) as LabelOption);

  const settings = () => {
    const base = { ...(attribute?.settings ?? {}) } as Record<string, unknown>;
    if (hasOptions) base.options = options;
    if (kind === 'label') base.multiple = multiple;
    if (kind === 'custom-id') base.prefix = prefix;
    if (kind === 'button') base.url = url;
    return base;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const candidate = { id: attribute?.id, board_id: board.boardId, name: name.trim(), kind, settings: settings() };
    if (!candidate.name) return setError(t`Enter a name.`);
    const problems = attributeProblems(candidate, board.attributes);
    const say = (p: string) =>
      p === AttributeMessages.duplicate
        ? t`an attribute with the same name and type already exists`
        : p === AttributeMessages.labelNeedsName || p.endsWith(AttributeMessages.labelNeedsName)
          ? t`the label needs a name`
          : p.endsWith(AttributeMessages.unsafeUrl)
            ? t`The link must start with http:, https: or mailto:`
            : p;
    if (problems.length) return setError(problems.map(say).join(' '));
    try {
      if (attribute) await board.actions.updateAttribute(attribute, { name: candidate.name, settings: candidate.settings }, 'edit attribute');
      else await board.actions.createAttribute({ name: candidate.name, kind, settings: candidate.settings }, board.attributes);
      onClose();
    } catch (err) {
      toast.show((err as Error).message, { kind: 'error' });
    }
  };

  return (
    <Modal open onClose={onClose} title={attribute ? t`Edit attribute` : t`New attribute`}>
      <form className="board-form" onSubmit={submit} data-testid="attribute-form">
        <label>
          {t`Name`}
          <input autoFocus value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {t`Kind`}
          <select
            value={kind}
            disabled={Boolean(attribute)}
            onChange={(e) => {
              const next = e.target.value as AttributeKind;
              setKind(next);
              // A new Status starts with the usual four, in readable colours (issue #17 part 2).
              if (next === 'status' && !attribute && options.length === 0) setOptions(defaultStatuses());
            }}
          >
            {(attribute ? [kind] : CREATABLE).map((k) => (
              <option key={k} value={k}>
                {kindLabel(k)}
              </option>
            ))}
          </select>
        </label>
        {kind === 'label' && (
          <label className="inline-field">
            <input type="checkbox" checked={multiple} onChange={(e) => setMultiple(e.target.checked)} />
            {t`Allow several labels per item`}
          </label>
        )}
        {kind === 'custom-id' && (
          <label>
            {t`Prefix`}
            <input value={prefix} onChange={(e) => setPrefix(e.target.value)} />
          </label>
        )}
        {kind === 'button' && (
          <label>
            {t`Opens this link`}
            <input value={url} onChange={(e) => setUrl(e.target.value)} />
          </label>
        )}
        {hasOptions && (
          <fieldset className="option-list">
            <legend>{kind === 'status' ? t`Statuses` : t`Labels`}</legend>
            {options.map((option, i) => (
              <div key={option.id} className="option-row">
                <input aria-label={t`Label name`} value={option.name} onChange={(e) => setOptions(options.map((o, j) => (j === i ? { ...o, name: e.target.value } : o)))} />
                <input type="color" aria-label={t`Colour`} value={option.color} onChange={(e) => setOptions(options.map((o, j) => (j === i ? { ...o, color: e.target.value.toUpperCase() } : o)))} />
                <input type="color" aria-label={t`Text colour`} value={option.textColor ?? LABEL_DEFAULT_TEXT_COLOR} onChange={(e) => setOptions(options.map((o, j) => (j === i ? { ...o, textColor: e.target.value.toUpperCase() } : o)))} />
                <span className="label-chip" style={{ background: option.color, color: option.textColor }}>
                  {option.name || '—'}
                </span>
                <Button variant="ghost" size="sm" type="button" onClick={() => setOptions(options.filter((_, j) => j !== i))}>
                  {t`Remove`}
                </Button>
              </div>
            ))}
            <Button variant="secondary" size="sm" type="button" onClick={() => setOptions([...options, newLabel(nanoid(8), '')])}>
              {kind === 'status' ? t`Add status` : t`Add label`}
            </Button>
          </fieldset>
        )}
        {error && (
          <p className="field-error" role="alert" data-testid="attribute-error">
            {error}
          </p>
        )}
        <div className="board-form-actions">
          <Button type="button" variant="secondary" onClick={onClose}>
            {t`Cancel`}
          </Button>
          <Button type="submit">{t`Save`}</Button>
        </div>
      </form>
    </Modal>
  );
}
