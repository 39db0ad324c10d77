import { useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { ATTACHMENT_MAX_BYTES, hasSafeScheme, type Attachment } from '../../../schema/attributes';
import { Messages } from '../../../schema/messages';
import { request } from '../../api/client';
import { useOnline } from '../../connectivity/use-connectivity';
import { translateMessage } from '../../i18n/server-messages';
import { useBoard } from '../BoardContext';
import type { EditorProps } from './values';
import { ErrorLine } from './ErrorLine';

/** The link that opens (images) or downloads (anything else) an attachment under its own name. */
export function attachmentHref(a: Attachment): string {
  return `${a.url}${a.url.includes('?') ? '&' : '?'}name=${encodeURIComponent(a.name)}`;
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Attachments of one item: list, open, remove, and upload (POST /api/{teamId}/attachments, then
 * the returned entry is saved into the value like any edit, so it syncs and undoes). Uploading
 * needs the server: offline the control is greyed with the spec's text (shell.md §8).
 */
export function AttachmentsEditor(props: EditorProps) {
  const { t } = useLingui();
  const board = useBoard();
  const online = useOnline();
  const input = useRef<HTMLInputElement>(null);
  const current = (props.value as Attachment[] | null) ?? [];
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const limitMb = ATTACHMENT_MAX_BYTES / (1024 * 1024);

  const commit = async (next: Attachment[]) => {
    try {
      await props.onCommit(next);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const uploadFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setBusy(true);
    let next = current;
    try {
      for (const file of Array.from(files)) {
        if (file.size > ATTACHMENT_MAX_BYTES) {
          setError(t`The file is too large. It must be under ${limitMb} MB.`);
          continue;
        }
        const form = new FormData();
        form.append('file', file);
        try {
          const answer = await request<{ data: Attachment }>('POST', `/api/${board.teamId}/attachments?item_id=${encodeURIComponent(props.item.id)}`, form);
          next = [...next, answer.data];
        } catch (err) {
          setError(translateMessage((err as Error).message));
        }
      }
      if (next !== current) await commit(next);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <span className="value-editor value-options attachments-editor" data-testid="attachments-editor" onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), props.onCancel())}>
      {current.length === 0 && <span className="hint">{t`No attachments.`}</span>}
      <ul className="attachment-list">
        {current.map((a) => (
          <li key={a.id} className="attachment">
            {hasSafeScheme(a.url) ? (
              <a href={attachmentHref(a)} target="_blank" rel="noreferrer noopener">
                {a.name}
              </a>
            ) : (
              <span>{a.name}</span>
            )}{' '}
            <small>{sizeText(a.size)}</small>
            <button type="button" aria-label={t`Remove ${a.name}`} onClick={() => void commit(current.filter((x) => x.id !== a.id))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <label className={`attachment-upload${online ? '' : ' is-disabled'}`} title={online ? undefined : translateMessage(Messages.offlineFeature)}>
        <input ref={input} type="file" multiple disabled={!online || busy} aria-describedby="attachment-limit" onChange={(e) => void uploadFiles(e.target.files)} />
        <span>{busy ? t`Uploading…` : t`Upload files`}</span>
      </label>
      <small id="attachment-limit" className="hint">
        {online ? t`Up to ${limitMb} MB per file.` : translateMessage(Messages.offlineFeature)}
      </small>
      <button type="button" autoFocus onClick={props.onCancel}>
        {t`Done`}
      </button>
      <ErrorLine error={error} />
    </span>
  );
}
