import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { hasSafeScheme, settingsOf } from '../../../schema/attributes';
import { useBoard } from '../BoardContext';
import type { Attribute, Item } from '../store/live';
import { AutomationCommands } from './automations-store';
import './button.css';

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
  const click = (e: React.MouseEvent) => {
    e.stopPropagation();
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
    <button type="button" className={`value-button ${state}`} data-testid="button-attribute" onClick={click} aria-live="polite">
      {state === 'sent' ? `✓ ${s.label}` : state === 'failed' ? t`Not sent` : s.label}
    </button>
  );
}
