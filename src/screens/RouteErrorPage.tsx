import { useEffect } from 'react';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { connectivity } from '../connectivity/instance';
import { useOnline } from '../connectivity/use-connectivity';
import { Page } from './Page';
import { SCREEN_LOAD_ERROR, SCREEN_LOAD_TIMEOUT } from './screen-load-error';

/** A screen's code could not load (often: offline before it was ever opened) or it threw. */
export function RouteErrorPage({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const online = useOnline();
  const text = String((error as Error | undefined)?.message ?? error);
  const chunkFailed = text.includes(SCREEN_LOAD_ERROR);
  const timedOut = text.includes(SCREEN_LOAD_TIMEOUT);
  useEffect(() => {
    if (chunkFailed) connectivity.networkFailure();
  }, [chunkFailed]);
  // When the connection returns, try again by itself.
  useEffect(() => {
    if (online && chunkFailed) {
      reset();
      void router.invalidate();
    }
  }, [online, chunkFailed, reset, router]);
  return (
    <Page>
      <div className="empty-state" role="alert" data-testid="route-error">
        <p>
          {timedOut ? (
            <Trans>This page is taking too long to load. Check your connection and try again.</Trans>
          ) : chunkFailed || !online ? (
            <Trans>This feature is not available when offline</Trans>
          ) : (
            <Trans>Something Went Wrong</Trans>
          )}
        </p>
        <button
          type="button"
          className="ui-button ui-button--secondary ui-button--md"
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          <Trans>Try again</Trans>
        </button>
      </div>
    </Page>
  );
}
