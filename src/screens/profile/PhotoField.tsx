import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { PHOTO_MAX_BYTES } from '../../../schema/constants';
import { useAction } from '../forms';
import { FormError } from '../auth/AuthFrame';
import { inlineErrorOf } from '../auth/form-errors';

/** A photo with upload and remove; files over the limit are refused before upload. */
export function PhotoField({ label, url, onUpload, onRemove }: { label: string; url: string | null; onUpload: (file: File) => Promise<void>; onRemove: () => Promise<void> }) {
  const { t } = useLingui();
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const handle = (err: unknown) => {
    const inline = inlineErrorOf(err);
    setError(inline);
    return Boolean(inline);
  };
  const [upload, uploading] = useAction(async (file: File) => {
    setError(null);
    const limitMb = PHOTO_MAX_BYTES / 1024 / 1024;
    if (file.size > PHOTO_MAX_BYTES) {
      setError(t`The file is too large. It must be under ${limitMb} MB.`);
      return;
    }
    await onUpload(file);
  }, { onError: handle });
  const [remove, removing] = useAction(onRemove, { onError: handle });
  return (
    <div className="field photo-field">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      {url ? <img src={url} alt={label} className="photo-preview" width={64} height={64} /> : <span className="photo-empty muted">{t`No photo`}</span>}
      <label htmlFor={id} className="ui-button ui-button--secondary ui-button--md">
        <Trans>Upload photo</Trans>
      </label>
      <input
        id={id}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        className="visually-hidden"
        disabled={uploading}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void upload(file);
        }}
      />
      {url && (
        <button type="button" className="link-button" disabled={removing} onClick={() => void remove()}>
          <Trans>Remove photo</Trans>
        </button>
      )}
      <FormError message={error} />
    </div>
  );
}
