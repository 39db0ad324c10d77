import { Link, useParams } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLingui as useLinguiRuntime } from '@lingui/react';
import { msg } from '@lingui/core/macro';
import { pathFor } from '../../../../../schema/routes';
import type { HookLog } from '../../../../../schema/hooks';
import { formatDate, formatNumber } from '../../../../i18n/locale';
import { Button } from '../../../../ui/Button';
import { EmptyState } from '../../../../ui/EmptyState';
import { Page } from '../../../Page';
import { useLoad } from '../../../workspace/use-team';
import { Hooks, myHook } from './hooks-api';
import '../developer.css';
import './hooks.css';

const STATUS_LABELS = {
  success: msg`Delivered`,
  retrying: msg`Failed, will retry`,
  failed: msg`Failed`,
} as const;

/** How much of a body a row shows (the server keeps 4 KB of each). */
const SHOWN = 2000;
const cut = (text: string | null) => (text === null ? '' : text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);

/**
 * /profile/developer/hooks/:hookId/logs: every attempt of the last 30 days, newest first — when,
 * which event, which attempt, the outcome and the answer's status, how long it took, and (opened)
 * the request and answer bodies, cut short.
 */
export default function HookLogsPage() {
  const { hookId } = useParams({ strict: false }) as { hookId: string };
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const loaded = useLoad(async () => {
    const hook = await myHook(hookId);
    return { hook, logs: hook ? await Hooks.logs(hook) : [] };
  }, [hookId]);
  const back = (
    <p>
      <Link to={pathFor('profile.developer.hook', { hookId })}>
        <Trans>Back to the webhook</Trans>
      </Link>
    </p>
  );
  if (loaded.data === null) {
    return (
      <Page>
        {loaded.failed ? (
          back
        ) : (
          <p role="status">
            <Trans>Loading…</Trans>
          </p>
        )}
      </Page>
    );
  }
  const { hook, logs } = loaded.data;
  if (!hook) {
    return (
      <Page>
        <EmptyState headingLevel={2} title={t`Hook missing or not loaded`} text={t`It may have been deleted, or it belongs to someone else.`} />
        {back}
      </Page>
    );
  }
  return (
    <Page actions={<Button onClick={loaded.reload}>{t`Refresh`}</Button>}>
      <p>
        <span className="hook-url" dir="ltr">
          {hook.url}
        </span>{' '}
        — <Trans>kept for 30 days</Trans>
      </p>
      {logs.length === 0 ? (
        <EmptyState headingLevel={2} title={t`No deliveries yet`} text={t`Each attempt to send an event, and each test, is listed here.`} />
      ) : (
        <div className="developer-table-wrap">
          <table className="table" data-testid="hook-logs">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Time</Trans>
                </th>
                <th scope="col">
                  <Trans>Event</Trans>
                </th>
                <th scope="col">
                  <Trans>Attempt</Trans>
                </th>
                <th scope="col">
                  <Trans>Status</Trans>
                </th>
                <th scope="col">
                  <Trans>Answer</Trans>
                </th>
                <th scope="col">
                  <Trans>Duration</Trans>
                </th>
                <th scope="col">
                  <Trans>Details</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {logs.map((log: HookLog) => {
                const ms = formatNumber(log.duration_ms, i18n.locale);
                return (
                  <tr key={log.id} data-log-status={log.status}>
                    <td>{formatDate(log.created_at, i18n.locale, { dateStyle: 'short', timeStyle: 'medium' })}</td>
                    <td>
                      <code dir="ltr">{log.event}</code>
                    </td>
                    <td>{formatNumber(log.attempt, i18n.locale)}</td>
                    <td className={`hook-log-status--${log.status}`}>{i18n._(STATUS_LABELS[log.status])}</td>
                    <td>{log.response_status ?? '—'}</td>
                    <td>{t`${ms} ms`}</td>
                    <td>
                      <details className="hook-log-details">
                        <summary>{log.error ?? t`Request and answer`}</summary>
                        <p>
                          <Trans>Delivery</Trans> <code dir="ltr">{log.delivery_id}</code>
                        </p>
                        <p>
                          <Trans>Request body</Trans>
                        </p>
                        <pre className="hook-log-body" dir="ltr">
                          {cut(log.request_body)}
                        </pre>
                        <p>
                          <Trans>Answer body</Trans>
                        </p>
                        <pre className="hook-log-body" dir="ltr">
                          {cut(log.response_body) || '—'}
                        </pre>
                      </details>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {back}
    </Page>
  );
}
