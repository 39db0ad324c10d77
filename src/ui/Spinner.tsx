import { useLingui } from '@lingui/react/macro';

export interface SpinnerProps {
  size?: 'sm' | 'md' | 'lg';
  /** Announced to screen readers; defaults to "Loading". Pass `null` when a parent already says it. */
  label?: string | null;
  className?: string;
}

export function Spinner({ size = 'md', label, className }: SpinnerProps) {
  const { t } = useLingui();
  const text = label === undefined ? t`Loading` : label;
  return (
    <span
      className={['ui-spinner', `ui-spinner--${size}`, className].filter(Boolean).join(' ')}
      role={text ? 'status' : undefined}
      aria-hidden={text ? undefined : true}
    >
      {text ? <span className="visually-hidden">{text}</span> : null}
    </span>
  );
}
