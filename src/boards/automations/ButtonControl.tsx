import { useState, type SyntheticEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { hasSafeScheme, settingsOf } from '../../../schema/attributes';
import { useBoard } from '../BoardContext';
import type { Attribute, Item } from '../store/live';
import { AutomationCommands } from './automations-store';
import './button.css';

/** Clicks, keys and pointer presses on the button are its own: the cell, card or row around it must not act on them. */
const keep = (event: SyntheticEvent) => event.stopPropagation();

/**
 * A Button attribute in a table cell, a card or the item panel. A click is saved as a click
 * record through the engine (optimistic, queued offline like any write); its event on the server
 * runs the automations the button triggers. A button with a link also opens it.
 */
export function ButtonControl({ attribute, item }: { attribute: Attribute; item: Item }) {
  const { t } = useLingui();
  const board = useBoard();
  const [state, setState] = useState<'idle' | 'sent' | 'failed'>('idle');
  const s = settingsOf('button', attribute.settings);
  const link = s.url && hasSafeScheme(s.url) ? s.url : null;
  const mayClick = !board.readOnly && board.can('EDIT_ITEM', item.folder_id, item.created_by ?? null);
  const click = () => {
    if (link) window.open(link, '_blank', 'noopener,noreferrer');
    if (!mayClick) return;
    const commands = new AutomationCommands(board.backend, board.teamId, board.boardId);
    setState('sent');
    commands.click(item.id, attribute.id).then(
      () => setTimeout(() => setState('idle'), 1500),
      () => setState('failed'),
    );
  };
  if (!link && !mayClick) return <span className="value-button disabled">{s.label}</span>;
  return (
    <span className="value-button-wrap" onClick={keep} onDoubleClick={keep} onPointerDown={keep} onKeyDown={keep}>
      <button type="button" className={`value-button ${state}`} data-testid="button-attribute" data-attribute-id={attribute.id} onClick={click} aria-live="polite">
        {state === 'sent' ? `✓ ${s.label}` : state === 'failed' ? t`Not sent` : s.label}
      </button>
    </span>
  );
}

/** The card's buttons (column view): one per shown Button attribute of the board. */
export function CardButtons({ item }: { item: Item }) {
  const board = useBoard();
  const attributes = board.attributes.filter((a) => a.kind === 'button' && !a.hidden && !a.deleted_at);
  if (attributes.length === 0) return null;
  return (
    <span className="card-buttons">
      {attributes.map((a) => (
        <ButtonControl key={a.id} attribute={a} item={item} />
      ))}
    </span>
  );
}
