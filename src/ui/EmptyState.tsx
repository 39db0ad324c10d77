import type { ReactNode } from 'react';

export interface EmptyStateProps {
  /** An icon or small illustration (decorative). */
  icon?: ReactNode;
  title: ReactNode;
  text?: ReactNode;
  /** Usually one primary Button. */
  action?: ReactNode;
  className?: string;
}

/** What a list or screen shows when there is nothing in it yet. */
export function EmptyState({ icon, title, text, action, className }: EmptyStateProps) {
  return (
    <div className={['ui-empty-state', className].filter(Boolean).join(' ')}>
      {icon ? (
        <div className="ui-empty-state__icon" aria-hidden="true">
          {icon}
        </div>
      ) : null}
      <h3 className="ui-empty-state__title">{title}</h3>
      {text ? <p className="ui-empty-state__text">{text}</p> : null}
      {action ? <div className="ui-empty-state__action">{action}</div> : null}
    </div>
  );
}
