import type { ReactNode } from 'react';

export interface EmptyStateProps {
  /** An icon or small illustration (decorative). */
  icon?: ReactNode;
  title: ReactNode;
  text?: ReactNode;
  /** Usually one primary Button. */
  action?: ReactNode;
  /** Heading level of the title, to fit the page outline (default 2). */
  headingLevel?: 2 | 3 | 4;
  className?: string;
}

/** What a list or screen shows when there is nothing in it yet. */
export function EmptyState({ icon, title, text, action, headingLevel = 2, className }: EmptyStateProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className={['ui-empty-state', className].filter(Boolean).join(' ')}>
      {icon ? (
        <div className="ui-empty-state__icon" aria-hidden="true">
          {icon}
        </div>
      ) : null}
      <Heading className="ui-empty-state__title">{title}</Heading>
      {text ? <p className="ui-empty-state__text">{text}</p> : null}
      {action ? <div className="ui-empty-state__action">{action}</div> : null}
    </div>
  );
}
