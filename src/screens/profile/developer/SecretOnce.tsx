import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';

/** A secret shown this once (a token, a client secret), with a copy button. */
export function SecretOnce({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="secret-once" role="status">
      <p>
        <Trans>Copy it now: it is not shown again.</Trans>
      </p>
      <div className="secret-once__row">
        <input className="secret-once__value" readOnly aria-label={label} value={value} data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="ui-button ui-button--secondary ui-button--md" onClick={() => void copy()}>
          {copied ? t`Copied` : t`Copy`}
        </button>
      </div>
    </div>
  );
}
