import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { BackIcon } from './icons';

export interface MobileHeaderProps {
  title: ReactNode;
  /** Shows the Back button; called when it is pressed. */
  onBack?: () => void;
  /** Text beside the back arrow; defaults to "Back". */
  backLabel?: string;
  /** Buttons at the end of the bar. */
  actions?: ReactNode;
  className?: string;
}

/** Top bar of a screen on small devices: Back, title, actions. */
export function MobileHeader({ title, onBack, backLabel, actions, className }: MobileHeaderProps) {
  const { t } = useLingui();
  return (
    <header className={['ui-mobile-header', className].filter(Boolean).join(' ')}>
      <div className="ui-mobile-header__start">
        {onBack ? (
          <button type="button" className="ui-mobile-header__back" onClick={onBack}>
            <BackIcon />
            <span>{backLabel ?? t`Back`}</span>
          </button>
        ) : null}
      </div>
      <h1 className="ui-mobile-header__title">{title}</h1>
      <div className="ui-mobile-header__end">{actions}</div>
    </header>
  );
}
