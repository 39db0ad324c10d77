import { useEffect, useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import Papa from 'papaparse';
import { FORMULA_START } from '../../../schema/csv-formula';
import { pathFor } from '../../../schema/routes';
import { api } from '../../api/client';
import { useSession } from '../../api/session';
import { showApiError } from '../../api/handle-error';
import { formatDate, weekStart } from '../../i18n/locale';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { csvRows, dayTotals, entriesIn, entryMs, hm, weekOf, weekTotals, type MyTimeAnswer, type WeekDay } from './my-time';
import { Page } from '../Page';
import './my-time.css';

/** Weeks in the overview: the chosen one and the seven before it. */
const WEEKS = 8;

/**
 * /profile/time ("My time"): the signed-in user's own time entries in every workspace
 * (GET /api/me/time-tracking), week by week in their week start: totals per week and per day, the
 * week's entries, and a CSV download of them. Online only (a report over every workspace).
 */
export default function MyTimePage() {
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const [offset, setOffset] = useState(0);
  const [answer, setAnswer] = useState<MyTimeAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const firstDay = weekStart(i18n.locale, user?.start_of_week) as WeekDay;
  const week = useMemo(() => weekOf(new Date(now), firstDay, offset), [now, firstDay, offset]);
  const firstWeek = useMemo(() => weekOf(new Date(now), firstDay, offset - (WEEKS - 1)).start, [now, firstDay, offset]);

  useEffect(() => {
    if (!user || user.guest) return;
    let live = true;
    setFailed(false);
    const query = new URLSearchParams({ from: firstWeek.toISOString(), to: week.end.toISOString() });
    api.get<MyTimeAnswer>(`/api/me/time-tracking?${query}`).then(
      (value) => live && setAnswer(value),
      (error) => {
        if (!live) return;
        setFailed(true);
        showApiError(error);
      },
    );
    return () => {
      live = false;
    };
  }, [user, firstWeek, week.end]);

  const entries = answer?.entries ?? [];
  const running = entries.some((e) => e.ended_at === null);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [running]);

  if (!user) return <Page />;
  if (user.guest) {
    return (
      <Page narrow>
        <EmptyState title={t`Guests do not track time.`} />
      </Page>
    );
  }

  const weekEntries = entriesIn(entries, week.start, week.end);
  const days = dayTotals(entries, week.start, now);
  const weeks = weekTotals(entries, firstWeek, WEEKS, now);
  const day = (d: Date) => formatDate(d, i18n.locale, { weekday: 'short', day: 'numeric', month: 'short' });
  const weekLabel = (d: Date) => {
    const date = formatDate(d, i18n.locale, { dateStyle: 'medium' });
    return t`Week of ${date}`;
  };
  const runningText = (spent: string) => t`${spent} (running)`;

  const download = () => {
    if (!answer) return;
    const header = [t`Started`, t`Ended`, t`Hours`, t`Duration`, t`Board`, t`Item`, t`Attribute`, t`Description`];
    const csv = Papa.unparse(csvRows(answer, weekEntries, header, now), { escapeFormulae: FORMULA_START });
    const url = URL.createObjectURL(new Blob(['\ufeff' + csv], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `time-${formatDate(week.start, 'en-CA', { dateStyle: 'short' })}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <Page
      actions={
        <div className="my-time-actions">
          <Button variant="secondary" size="sm" onClick={() => setOffset(offset - 1)} aria-label={t`Previous week`}>
            ‹
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setOffset(0)} disabled={offset === 0}>
            <Trans>This week</Trans>
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setOffset(offset + 1)} aria-label={t`Next week`} disabled={offset >= 0}>
            ›
          </Button>
          <Button size="sm" onClick={download} disabled={!answer || weekEntries.length === 0} data-testid="my-time-csv">
            <Trans>Download CSV</Trans>
          </Button>
        </div>
      }
    >
      {!answer ? (
        failed ? <EmptyState title={t`Your time could not be loaded. Check your connection and try again.`} /> : <Spinner label={t`Loading`} />
      ) : (
        <div className="my-time" data-testid="my-time">
          <section aria-labelledby="my-time-days">
            <h2 id="my-time-days">{weekLabel(week.start)}</h2>
            <table className="my-time-table">
              <tbody>
                {days.map((d) => (
                  <tr key={d.start.toISOString()}>
                    <th scope="row">{day(d.start)}</th>
                    <td>{hm(d.ms)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">
                    <Trans>Week total</Trans>
                  </th>
                  <td data-testid="my-time-week-total">{hm(days.reduce((s, d) => s + d.ms, 0))}</td>
                </tr>
              </tfoot>
            </table>
          </section>
          <section aria-labelledby="my-time-weeks">
            <h2 id="my-time-weeks">
              <Trans>By week</Trans>
            </h2>
            <table className="my-time-table">
              <tbody>
                {[...weeks].reverse().map((w, i) => (
                  <tr key={w.start.toISOString()} aria-current={i === 0 ? 'true' : undefined}>
                    <th scope="row">
                      <button type="button" className="my-time-week" onClick={() => setOffset(offset - i)}>
                        {weekLabel(w.start)}
                      </button>
                    </th>
                    <td>{hm(w.ms)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="my-time-entries" className="my-time-entries">
            <h2 id="my-time-entries">
              <Trans>Entries</Trans>
            </h2>
            {weekEntries.length === 0 ? (
              <p>
                <Trans>No time tracked this week.</Trans>
              </p>
            ) : (
              <table className="my-time-table my-time-list">
                <thead>
                  <tr>
                    <th scope="col">{t`Started`}</th>
                    <th scope="col">{t`Item`}</th>
                    <th scope="col">{t`Description`}</th>
                    <th scope="col">{t`Duration`}</th>
                  </tr>
                </thead>
                <tbody>
                  {weekEntries.map((e) => {
                    const itemName = e.item_id ? answer.itemNames?.[e.item_id] : undefined;
                    const boardName = answer.boardNames?.[e.board_id];
                    return (
                      <tr key={e.id}>
                        <td>{formatDate(e.started_at, i18n.locale, { dateStyle: 'medium', timeStyle: 'short' })}</td>
                        <td>
                          {itemName !== undefined && e.item_id ? (
                            <Link to={pathFor('folder', { rootId: e.board_id, folderId: e.board_id, itemId: e.item_id }) + '?t=time'}>
                              {itemName || t`Untitled`}
                            </Link>
                          ) : (
                            <span className="my-time-muted">{t`An item you cannot open`}</span>
                          )}
                          {boardName && <span className="my-time-muted"> · {boardName}</span>}
                        </td>
                        <td>{e.description}</td>
                        <td>{e.ended_at === null ? runningText(hm(entryMs(e, now))) : hm(entryMs(e, now))}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
          </section>
        </div>
      )}
    </Page>
  );
}
