import { Trans } from '@lingui/react/macro';

/** Recovery codes are shown once: the user is told to store them now. */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  return (
    <div className="recovery-codes">
      <p role="status">
        <Trans>Store these recovery codes somewhere safe. Each works once, and they are not shown again.</Trans>
      </p>
      <ul data-testid="recovery-codes" className="code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
