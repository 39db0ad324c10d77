import { forwardRef, useEffect, useRef, useState, type MouseEvent } from 'react';
import { Button, type ButtonProps } from './Button';
import { Spinner } from './Spinner';

export interface BusyButtonProps extends Omit<ButtonProps, 'onClick'> {
  /** May return a promise: the button stays disabled with a spinner until it settles. */
  onClick?: (event: MouseEvent<HTMLButtonElement>) => unknown;
  /** Forces the busy look, e.g. while a form submits elsewhere. */
  busy?: boolean;
}

/**
 * A button that cannot be pressed twice while its work runs. A rejected promise is handed back
 * to the caller's chain unchanged (the app's error handler shows it); the button just becomes
 * usable again.
 */
export const BusyButton = forwardRef<HTMLButtonElement, BusyButtonProps>(function BusyButton(
  { onClick, busy = false, disabled, children, className, ...rest },
  ref,
) {
  const [running, setRunning] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const isBusy = busy || running;

  const handle = (event: MouseEvent<HTMLButtonElement>) => {
    if (isBusy || !onClick) return;
    const result = onClick(event);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      setRunning(true);
      (result as Promise<unknown>).then(
        () => mounted.current && setRunning(false),
        (error: unknown) => {
          if (mounted.current) setRunning(false);
          throw error;
        },
      );
    }
  };

  return (
    <Button
      ref={ref}
      {...rest}
      className={['ui-busy-button', isBusy && 'is-busy', className].filter(Boolean).join(' ')}
      disabled={disabled || isBusy}
      aria-busy={isBusy || undefined}
      onClick={handle}
    >
      {isBusy ? <Spinner size="sm" label={null} className="ui-busy-button__spinner" /> : null}
      <span className="ui-busy-button__label">{children}</span>
    </Button>
  );
});
