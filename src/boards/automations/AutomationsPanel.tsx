import { useEffect, useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { automationProblems, type AutomationRun, type AutomationUsage, type RunResult } from '../../../schema/automations';
import { pathFor } from '../../../schema/routes';
import { useBoard } from '../BoardContext';
import { AutomationBuilder } from './AutomationBuilder';
import { AutomationCommands, fetchRuns, fetchUsage, useAutomations, type Automation, type AutomationDraft } from './automations-store';
import { recipesFor, type RecipeId } from './recipes';
import { useDescribe } from './use-describe';
import { useUserZone } from './user-zone';
import './automations.css';

/**
 * The board's Automations panel (a lazy chunk, opened with ?t=automations; ?t=usage opens its
 * usage tab, where the runs warning and exceeded notifications lead): the list with switches,
 * the sentence builder, ready-made recipes, the run log and this month's runs against the plan's
 * limit. People without MANAGE_AUTOMATIONS see the list read-only.
 */
type Tab = 'automations' | 'log' | 'usage';

export default function AutomationsPanel({ tab: initialTab }: { tab: string }) {
  const { t } = useLingui();
  const board = useBoard();
  const [tab, setTab] = useState<Tab>(initialTab === 'usage' ? 'usage' : 'automations');
  useEffect(() => setTab(initialTab === 'usage' ? 'usage' : 'automations'), [initialTab]);
  const close = pathFor('board', { rootId: board.boardId });
  const tabs: [Tab, string][] = [
    ['automations', t`Automations`],
    ['log', t`Run log`],
    ['usage', t`Usage`],
  ];
  return (
    <aside className="automations-panel" aria-label={t`Automations`} data-testid="automations-panel">
      <header className="automations-header">
        <h2>
          <Trans>Automations</Trans>
        </h2>
        <Link to={close} className="link-button" aria-label={t`Close`}>
          ×
        </Link>
      </header>
      <div role="tablist" className="automations-tabs">
        {tabs.map(([id, label]) => (
          <button key={id} role="tab" type="button" aria-selected={tab === id} className={tab === id ? 'active' : ''} onClick={() => setTab(id)} data-testid={`automations-tab-${id}`}>
            {label}
          </button>
        ))}
      </div>
      {tab === 'automations' && <AutomationList />}
      {tab === 'log' && <RunLog />}
      {tab === 'usage' && <UsageTab />}
    </aside>
  );
}

function AutomationList() {
  const { t } = useLingui();
  const board = useBoard();
  const automations = useAutomations(board.boardId);
  const describe = useDescribe();
  const commands = useMemo(() => new AutomationCommands(board.backend, board.teamId, board.boardId), [board.backend, board.teamId, board.boardId]);
  const canManage = board.can('MANAGE_AUTOMATIONS', board.boardId);
  const [editing, setEditing] = useState<{ id: string | null; draft: AutomationDraft } | null>(null);
  const facts = useMemo(() => ({ attributes: new Map(board.attributes.filter((a) => !a.deleted_at).map((a) => [a.id, a])), folderIds: new Set(board.folders.map((f) => f.id)) }), [board.attributes, board.folders]);
  const zone = useUserZone();
  // The runner fills in {{item.name}}: a placeholder of the message, so translations keep it as it is.
  const itemName = '{{item.name}}';
  const recipes = recipesFor(board.attributes, board.folders, board.boardId, board.backend.userId, {
    zone,
    welcome: t`Welcome, ${itemName}! Please fill in the details.`,
    dueTomorrow: t`${itemName} is due tomorrow`,
  });
  const recipeTitle: Record<RecipeId, string> = {
    'done-to-folder': t`When Status is Done, move to the Done folder`,
    'created-comment': t`When an item is created, add a welcome comment`,
    'due-notify': t`A day before the due date, notify me`,
    'button-done': t`When a button is clicked, set Status to Done`,
    'moved-clear': t`When an item moves to the Done folder, clear its date`,
  };

  if (editing) {
    return (
      <AutomationBuilder
        initial={editing.draft}
        onCancel={() => setEditing(null)}
        onSave={(draft) => {
          const existing = editing.id ? automations?.find((a) => a.id === editing.id) : undefined;
          void (existing ? commands.update(existing, draft) : commands.create(draft, (automations?.at(-1)?.position ?? 0) + 1));
          setEditing(null);
        }}
      />
    );
  }

  const blank: AutomationDraft = { name: '', enabled: true, trigger: null, conditions: [], match: 'all', actions: [{}] };
  return (
    <div className="automations-list">
      {canManage && (
        <button type="button" className="primary-button" data-testid="automation-new" onClick={() => setEditing({ id: null, draft: blank })}>
          <Trans>New automation</Trans>
        </button>
      )}
      {automations === undefined ? null : automations.length === 0 ? (
        <p className="automations-empty">
          <Trans>No automations on this board yet.</Trans>
        </p>
      ) : (
        <ul>
          {automations.map((automation: Automation) => {
            const invalid = automationProblems(automation, facts).length > 0;
            return (
              <li key={automation.id} className="automation-card" data-testid="automation-card">
                <label className="automation-switch">
                  <input
                    type="checkbox"
                    role="switch"
                    aria-label={t`Switched on`}
                    checked={automation.enabled}
                    disabled={!canManage || (invalid && !automation.enabled)}
                    onChange={(e) => void commands.update(automation, { enabled: e.target.checked })}
                  />
                </label>
                <div className="automation-text">
                  <strong>{automation.name || describe(automation)}</strong>
                  <span>{describe(automation)}</span>
                  {invalid && <span className="form-error">{t`The automation is not complete or not valid.`}</span>}
                </div>
                {canManage && (
                  <div className="automation-card-actions">
                    <button type="button" className="link-button" onClick={() => setEditing({ id: automation.id, draft: automation })}>
                      <Trans>Edit</Trans>
                    </button>
                    <button type="button" className="link-button" onClick={() => void commands.remove(automation)}>
                      <Trans>Delete</Trans>
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {canManage && (
        <section className="automation-recipes">
          <h3>
            <Trans>Recipes</Trans>
          </h3>
          <ul>
            {recipes.map((recipe) => (
              <li key={recipe.id}>
                <button type="button" className="link-button" data-testid={`recipe-${recipe.id}`} onClick={() => setEditing({ id: null, draft: { ...recipe.draft, name: recipeTitle[recipe.id] } })}>
                  {recipeTitle[recipe.id]}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** Loads an online-only figure; offline it says so. */
function useOnline<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; error: string | null; reload(): void } {
  const [state, setState] = useState<{ data: T | null; error: string | null }>({ data: null, error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ data, error: null }),
      (error: unknown) => live && setState({ data: null, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, attempt]);
  return { ...state, reload: () => setAttempt((n) => n + 1) };
}

function RunLog() {
  const { t, i18n } = useLingui();
  const board = useBoard();
  const automations = useAutomations(board.boardId);
  const { data, error, reload } = useOnline(() => fetchRuns(board.teamId, board.boardId), [board.teamId, board.boardId]);
  const results: Record<RunResult, string> = { done: t`Done`, skipped: t`Skipped`, failed: t`Failed`, limit: t`Over the monthly limit` };
  if (error) return <p className="form-error">{t`This feature is not available when offline`}</p>;
  if (!data) return null;
  const nameOf = (run: AutomationRun) => automations?.find((a) => a.id === run.automation_id)?.name ?? t`(deleted automation)`;
  return (
    <div className="automation-log">
      <button type="button" className="link-button" onClick={reload}>
        <Trans>Refresh</Trans>
      </button>
      {data.data.length === 0 ? (
        <p className="automations-empty">
          <Trans>No runs yet.</Trans>
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t`When`}</th>
              <th>{t`Automation`}</th>
              <th>{t`Result`}</th>
            </tr>
          </thead>
          <tbody>
            {data.data.map((run) => (
              <tr key={run.id} data-result={run.result}>
                <td>{i18n.date(run.created_at, { dateStyle: 'short', timeStyle: 'short' })}</td>
                <td>{nameOf(run)}</td>
                <td>
                  {results[run.result]}
                  {run.error && <div className="automation-error">{run.error}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function UsageTab() {
  const { t, i18n } = useLingui();
  const board = useBoard();
  const { data, error } = useOnline<AutomationUsage>(() => fetchUsage(board.teamId, board.boardId), [board.teamId, board.boardId]);
  if (error) return <p className="form-error">{t`This feature is not available when offline`}</p>;
  if (!data) return null;
  const percent = Math.min(100, Math.round(data.rate * 100));
  const runs = i18n.number(data.runs);
  const limit = i18n.number(data.limit);
  const here = data.boards.find((b) => b.board_id === board.boardId)?.runs ?? 0;
  const hereText = i18n.number(here);
  const max = Math.max(1, ...data.boards.map((b) => b.runs));
  return (
    <div className="automation-usage" data-testid="automation-usage" data-state={data.state}>
      <h3>
        <Trans>Automation runs this month</Trans>
      </h3>
      <div className="usage-bar" role="meter" aria-valuemin={0} aria-valuemax={data.limit} aria-valuenow={data.runs} aria-label={t`Runs used`}>
        <div className="usage-fill" style={{ inlineSize: `${percent}%` }} />
      </div>
      <p>{t`${runs} of ${limit} runs used (${percent}%).`}</p>
      {data.state === 'warning' && <p className="usage-warning">{t`Your automations have used most of this month’s runs.`}</p>}
      {data.state === 'exceeded' && <p className="form-error">{t`Automations are turned off until next month.`}</p>}
      <p>{t`This board: ${hereText} runs.`}</p>
      {data.boards.length > 0 && (
        <ul className="usage-boards" aria-label={t`Runs per board`}>
          {data.boards.map((b) => (
            <li key={b.board_id}>
              <span className="usage-board-bar" style={{ inlineSize: `${Math.round((b.runs / max) * 100)}%` }} />
              <span>{b.board_id === board.boardId ? board.board.name : t`Another board`}</span> <span>{i18n.number(b.runs)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
