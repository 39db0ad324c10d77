import { useId, useMemo, useState, type ReactNode } from 'react';
import { AUTOBOT_NAME, AUTOBOT_USER_ID } from '../../../schema/automations';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Member } from '../../api/endpoints';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { useOnline } from '../../connectivity/use-connectivity';
import { formatDate } from '../../i18n/locale';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { exactTime, whenText } from '../comments/when';
import { ActivityError } from './activity-api';
import { activityLine, type ActivityFilter, type ActivityLine, type ActivityLookup, type Words } from './activity-format';
import { useActivity } from './use-activity';
import { personName } from '../../../schema/special-users';
import './activity.css';

interface Props {
  teamId: number;
  /** The scope: one item, or a whole board. */
  scope: { itemId: string } | { boardId: string };
  lookup: ActivityLookup;
  members: readonly Member[];
  /** On the board screen each line names its item (a link to it); in the item panel it need not. */
  itemLink?: (itemId: string, name: string) => ReactNode;
}

/**
 * The activity log of an item or a board: who changed what and when, each edit as before → after,
 * filtered by person and by days, newest first, a page at a time ("Load more"). Online only.
 */
export function ActivityList({ teamId, scope, lookup: boardLookup, members, itemLink }: Props) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const ids = useId();
  const [userId, setUserId] = useState<number | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filter: ActivityFilter = { ...('itemId' in scope ? { itemId: scope.itemId } : { boardId: scope.boardId }), userId, from: from || null, to: to || null };
  const activity = useActivity(teamId, filter);
  // Everyone gets a name (W3.3, W8.4): a member's, else "Removed User", or "Deleted Account" when
  // the server no longer finds the account (the page's deleted_user_ids).
  const deletedIds = activity.deletedUserIds;
  const lookup = useMemo<ActivityLookup>(() => {
    const people = { guest: t`Guest`, removed: t`Removed User`, deleted: t`Deleted Account` };
    return { ...boardLookup, memberName: (id) => personName(id, boardLookup.memberName, (x) => deletedIds.has(x), people) };
  }, [boardLookup, deletedIds, t]);
  const words = useMemo<Words>(
    () => ({
      name: t`Name`,
      folder: t`Folder`,
      pinned: t`Pinned`,
      text: t`Text`,
      description: t`Description`,
      kind: t`Type`,
      hidden: t`Hidden`,
      yes: t`Yes`,
      no: t`No`,
      unknown: t`Unknown option`,
      formerMember: t`Removed User`,
      deleted: t`(deleted)`,
      formatDate: (iso) => (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? formatDate(`${iso}T00:00:00`, i18n.locale) : formatDate(iso, i18n.locale, { dateStyle: 'medium', timeStyle: 'short' })),
    }),
    [t, i18n.locale],
  );
  const lines = useMemo(() => activity.entries.map((e) => activityLine(e, lookup, words)).filter((l): l is ActivityLine => l !== null), [activity.entries, lookup, words]);
  const filtered = userId !== null || from !== '' || to !== '';

  if (!online) {
    return (
      <OnlineOnly>
        <p className="activity-offline">
          <Trans>The activity log is read from the server.</Trans>
        </p>
      </OnlineOnly>
    );
  }
  const denied = activity.error instanceof ActivityError && activity.error.status === 403;
  return (
    <section className="activity" data-testid="activity" aria-label={t`Activity`}>
      <div className="activity-filters" role="group" aria-label={t`Filter the activity`}>
        <label htmlFor={`${ids}-person`}>
          <Trans>Person</Trans>
        </label>
        <select id={`${ids}-person`} value={userId ?? ''} onChange={(e) => setUserId(e.target.value ? Number(e.target.value) : null)}>
          <option value="">{t`Everyone`}</option>
          {members
            .filter((m) => !m.pending)
            .map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
        </select>
        <label htmlFor={`${ids}-from`}>
          <Trans>From</Trans>
        </label>
        <input id={`${ids}-from`} type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
        <label htmlFor={`${ids}-to`}>
          <Trans>To</Trans>
        </label>
        <input id={`${ids}-to`} type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        {filtered && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setUserId(null);
              setFrom('');
              setTo('');
            }}
          >
            <Trans>Clear filters</Trans>
          </Button>
        )}
      </div>
      {activity.error && (
        <p role="alert" className="activity-error">
          {denied ? t`You do not have permission to view the activity log.` : t`The activity log could not be loaded: ${activity.error.message}`}
        </p>
      )}
      {!activity.loading && !activity.error && lines.length === 0 && !activity.hasMore && <EmptyState title={filtered ? t`No activity matches these filters.` : t`No activity yet.`} />}
      <ol className="activity-lines" data-testid="activity-lines">
        {lines.map((line) => (
          <LineView key={line.id} line={line} lookup={lookup} itemLink={itemLink} locale={i18n.locale} />
        ))}
      </ol>
      {activity.loading && <Spinner />}
      {activity.hasMore && !activity.loading && (
        <Button variant="secondary" size="sm" onClick={activity.loadMore}>
          <Trans>Load more</Trans>
        </Button>
      )}
    </section>
  );
}

function LineView({ line, lookup, itemLink, locale }: { line: ActivityLine; lookup: ActivityLookup; itemLink?: Props['itemLink']; locale: string }) {
  const { t } = useLingui();
  // Autobot's changes name the automation that made them (docs/automations.md).
  const automation = line.automation ?? '';
  const actor = line.actorId === null ? t`Cairn` : line.actorId === AUTOBOT_USER_ID ? (automation ? t`Autobot (${automation})` : AUTOBOT_NAME) : (lookup.memberName(line.actorId) ?? t`Removed User`);
  return (
    <li className="activity-line" data-testid="activity-line" data-type={`${line.subject}.${line.action}`}>
      <Avatar name={actor} size="sm" preview={false} />
      <div className="activity-line-main">
        <p className="activity-line-text">
          {line.action === 'conflicted' ? <ConflictSentence line={line} actor={actor} lookup={lookup} /> : (
            <>
              <strong>{actor}</strong> <Sentence line={line} />
            </>
          )}
          {itemLink && line.itemId && line.itemName && line.subject !== 'member' && <> · {itemLink(line.itemId, line.itemName)}</>}
        </p>
        {line.changes.length > 0 && line.action !== 'conflicted' && (
          <ul className="activity-changes">
            {line.changes.map((change, i) => (
              <li key={i}>
                {line.subject !== 'value' && <span className="activity-field">{change.field}: </span>}
                <span className="activity-before">{change.before ?? t`(empty)`}</span>
                <span className="activity-arrow" aria-label={t`changed to`}>
                  →
                </span>
                <span className="activity-after">{change.after ?? t`(empty)`}</span>
              </li>
            ))}
          </ul>
        )}
        <time className="activity-time" dateTime={line.at} title={exactTime(line.at, locale)}>
          {whenText(line.at, locale)}
        </time>
      </div>
    </li>
  );
}

/** A conflict: "X's offline change to Budget (90) was replaced by Y's (120)" (decision 0346). */
function ConflictSentence({ line, actor, lookup }: { line: ActivityLine; actor: string; lookup: ActivityLookup }) {
  const { t } = useLingui();
  const change = line.changes[0];
  const field = change?.field ?? '';
  const mine = change?.before ?? t`(empty)`;
  const theirs = change?.after ?? t`(empty)`;
  const by = line.replacedBy;
  const other = by === null || by === undefined ? t`another user` : by === AUTOBOT_USER_ID ? AUTOBOT_NAME : (lookup.memberName(by) ?? t`Removed User`);
  return <span data-testid="activity-conflict">{t`${actor}’s offline change to ${field} (${mine}) was replaced by ${other}’s (${theirs})`}</span>;
}

/** What the actor did, as a sentence in the user's language (the item is named beside it). */
function Sentence({ line }: { line: ActivityLine }) {
  const { t } = useLingui();
  const target = line.target ?? '';
  switch (`${line.subject}.${line.action}`) {
    case 'item.created':
      return <>{t`created the item`}</>;
    case 'item.updated':
      return <>{t`changed the item`}</>;
    case 'item.trashed':
      return <>{t`moved the item to the trash`}</>;
    case 'item.restored':
      return <>{t`restored the item from the trash`}</>;
    case 'item.deleted':
      return <>{t`deleted the item for good`}</>;
    case 'value.updated':
      return <>{t`changed ${target}`}</>;
    case 'comment.created':
      return (
        <>
          {t`commented`} <q className="activity-quote">{target}</q>
        </>
      );
    case 'comment.updated':
      return <>{t`edited a comment`}</>;
    case 'comment.trashed':
    case 'comment.deleted':
      return <>{t`deleted a comment`}</>;
    case 'reaction.created':
      return <>{t`reacted with ${target}`}</>;
    case 'reaction.trashed':
    case 'reaction.deleted':
      return <>{t`took back the reaction ${target}`}</>;
    case 'folder.created':
      return <>{t`created the folder ${target}`}</>;
    case 'folder.updated':
      return <>{t`changed the folder ${target}`}</>;
    case 'folder.trashed':
      return <>{t`moved the folder ${target} to the trash`}</>;
    case 'folder.restored':
      return <>{t`restored the folder ${target}`}</>;
    case 'folder.deleted':
      return <>{t`deleted the folder ${target}`}</>;
    case 'attribute.created':
      return <>{t`added the attribute ${target}`}</>;
    case 'attribute.updated':
      return <>{t`changed the attribute ${target}`}</>;
    case 'attribute.trashed':
    case 'attribute.deleted':
      return <>{t`deleted the attribute ${target}`}</>;
    case 'attribute.restored':
      return <>{t`restored the attribute ${target}`}</>;
    case 'view.created':
      return <>{t`created the view ${target}`}</>;
    case 'view.updated':
      return <>{t`changed the view ${target}`}</>;
    case 'view.trashed':
    case 'view.deleted':
      return <>{t`deleted the view ${target}`}</>;
    case 'time_entry.created':
      return <>{t`tracked time`}</>;
    case 'time_entry.updated':
      return <>{t`changed tracked time`}</>;
    case 'time_entry.trashed':
    case 'time_entry.deleted':
      return <>{t`deleted tracked time`}</>;
    case 'member.created':
      return <>{t`added ${target} to the workspace`}</>;
    case 'member.updated':
      return <>{t`changed the role of ${target}`}</>;
    case 'member.deleted':
      return <>{t`removed ${target} from the workspace`}</>;
    default:
      return <>{t`made a change`}</>;
  }
}
