import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Modal } from '../../ui/Modal';
import { Button } from '../../ui/Button';

/** A small dialog asking for one name (new folder, rename folder, rename view). */
export function NameDialog({ title, initial, onSave, onClose, label }: { title: string; initial: string; label?: string; onSave: (name: string) => Promise<unknown> | void; onClose: () => void }) {
  const { t } = useLingui();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t`Enter a name.`);
      return;
    }
    try {
      await onSave(name.trim());
      onClose();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <Modal open onClose={onClose} title={title} size="sm">
      <form onSubmit={submit} className="board-form">
        <label>
          {label ?? t`Name`}
          <input autoFocus value={name} onChange={(e) => setName(e.target.value)} aria-invalid={error ? true : undefined} />
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="board-form-actions">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit">
            <Trans>Save</Trans>
          </Button>
        </div>
      </form>
    </Modal>
  );
}
