import type { ReactNode } from 'react';
import { useMatches } from '@tanstack/react-router';
import { useLingui } from '@lingui/react';
import type { RouteDef } from '../../schema/routes';
import { routeTitles } from './titles';

/** A screen's frame: its heading (the route title unless given) and content. */
export function Page({ title, children, narrow, actions }: { title?: string; children?: ReactNode; narrow?: boolean; actions?: ReactNode }) {
  const matches = useMatches();
  const route = matches[matches.length - 1]?.staticData?.route as RouteDef | undefined;
  const { i18n } = useLingui();
  const descriptor = route ? routeTitles[route.name] : undefined;
  const heading = title ?? (descriptor ? i18n._(descriptor) : '');
  return (
    <section className={`page${narrow ? ' page-narrow' : ''}`} data-route={route?.name}>
      <header className="page-header">
        <h1>{heading}</h1>
        {actions}
      </header>
      {children}
    </section>
  );
}
