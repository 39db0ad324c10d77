import { useEffect, useState } from 'react';
import type { TemplateDetail } from '../../schema/templates';
import { ApiRequestError, OFFLINE_STATUS } from '../api/client';
import { Templates } from './api';

export type LoadedTemplate = { state: 'loading' } | { state: 'ready'; template: TemplateDetail } | { state: 'missing'; message: string } | { state: 'offline' };

/** One template for a screen; "not available or not shared" is a state of the screen, not a toast. */
export function useTemplate(id: string | undefined): [LoadedTemplate, () => void] {
  const [loaded, setLoaded] = useState<LoadedTemplate>({ state: 'loading' });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    if (!id) return;
    setLoaded({ state: 'loading' });
    Templates.open(id)
      .then((template) => live && setLoaded({ state: 'ready', template }))
      .catch((error: unknown) => {
        if (!live) return;
        if (error instanceof ApiRequestError && error.status === OFFLINE_STATUS) setLoaded({ state: 'offline' });
        else setLoaded({ state: 'missing', message: error instanceof Error ? error.message : String(error) });
      });
    return () => {
      live = false;
    };
  }, [id, version]);
  return [loaded, () => setVersion((v) => v + 1)];
}
