import { Trans, useLingui } from '@lingui/react/macro';
import { Modal } from '../ui/Modal';
import './palette.css';

/** The `?` sheet: every keyboard shortcut of the app, by where it works. */
export default function ShortcutSheet({ onClose }: { onClose(): void }) {
  const { t } = useLingui();
  const mod = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';
  const groups: { title: string; keys: [string, string][] }[] = [
    {
      title: t`Anywhere`,
      keys: [
        [`${mod} K`, t`Open the command palette: jump to a board or item, run an action`],
        ['?', t`Show these shortcuts`],
        [`${mod} Z`, t`Undo your last change on a board`],
        [`${mod} Shift Z`, t`Redo`],
      ],
    },
    {
      title: t`On a board`,
      keys: [
        ['C', t`New item (type its name, Enter adds it)`],
        ['/', t`Search the board`],
      ],
    },
    {
      title: t`In the table`,
      keys: [
        ['↑ ↓ ← →', t`Move between cells`],
        ['Enter / E', t`Edit the cell`],
        ['A–Z 0–9', t`Start editing a text or number cell with what you type`],
        ['Enter', t`While editing: save and move down a row`],
        ['Space', t`Check or uncheck a checkbox cell`],
        ['Esc', t`Stop editing, or clear the selection`],
        ['X', t`Select the row`],
        ['Shift Space', t`Select the row`],
        ['Delete', t`On the selection column or with rows selected: move them to the trash (Undo in the toast)`],
        [`${mod} Enter`, t`Open the item`],
        ['Alt ↑ ↓', t`Move the row to the previous or next group`],
      ],
    },
  ];
  return (
    <Modal open onClose={onClose} title={t`Keyboard shortcuts`} size="md">
      <div className="shortcut-sheet" data-testid="shortcut-sheet">
        {groups.map((group) => (
          <section key={group.title}>
            <h3>{group.title}</h3>
            <dl>
              {group.keys.map(([keys, text]) => (
                <div key={keys + text} className="shortcut-row">
                  <dt>
                    {keys.split(' ').map((k, i) => (
                      <kbd key={i}>{k}</kbd>
                    ))}
                  </dt>
                  <dd>{text}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
        <p className="muted">
          <Trans>Shortcuts never fire while you type in a field.</Trans>
        </p>
      </div>
    </Modal>
  );
}
