import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useMatches } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor, type RouteDef } from '../../schema/routes';
import { trelloListsOf, type TrelloBoardLists, type TrelloBoardSummary, type TrelloConfig, type TrelloListsAs } from '../../schema/trello-gitlab-import';
import { EXTERNAL_IMPORT_MAX_BYTES } from '../../schema/trello-gitlab-import';
import { Page } from '../screens/Page';
import { Button } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import { announceJobStarted } from '../board-jobs/jobs-flag';
import { importErrorText, rememberTrelloReturn, setTrelloToken, startTrelloImport, trelloBoardLists, trelloBoards, trelloConfig, trelloReturnUrl, trelloToken, type TrelloSource } from './import-api';
import './imports.css';

/**
 * Trello import (issue #16, decision 0220). `trello-import` (/team/{teamId}/import/trello/auth/{boardId}/{folderId}):
 * a Trello board export file (always), or — when the server has a Trello API key — "Connect to
 * Trello" (Trello's authorize page returns a token to /imports/trello/return-token) and the
 * member's boards. `trello-import-board` (…/import/trello/{boardId}/{trelloBoardId}/{folderId}):
 * one Trello board read through the API. Both end on the list picker: which lists, as subfolders
 * or as label values; the import then runs as a board job the tray follows.
 */

type Params = { teamId: string; boardId: string; folderId: string; trelloBoardId?: string };

export default function TrelloImportPage() {
  const { t, i18n } = useLingui();
  const params = useParams({ strict: false }) as Params;
  const matches = useMatches();
  const routeName = (matches[matches.length - 1]?.staticData?.route as RouteDef | undefined)?.name;
  const teamId = Number(params.teamId);
  const [config, setConfig] = useState<TrelloConfig | null>(null);
  const [token, setToken] = useState<string | null>(() => trelloToken());
  const [boards, setBoards] = useState<TrelloBoardSummary[] | null>(null);
  const [picked, setPicked] = useState<{ lists: TrelloBoardLists; source: TrelloSource } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const onBoardRoute = routeName === 'trello-import-board' && !!params.trelloBoardId;

  useEffect(() => {
    trelloConfig().then(setConfig, () => setConfig({ enabled: false, authorize_url: null }));
  }, []);

  // The API path: the member's boards, or the one board of the trello-import-board route.
  useEffect(() => {
    if (!token || !config?.enabled) return;
    let live = true;
    setLoading(true);
    setProblem(null);
    const work = onBoardRoute
      ? trelloBoardLists(teamId, params.trelloBoardId!, token).then((lists) => live && setPicked({ lists, source: { trello_board_id: params.trelloBoardId!, token } }))
      : trelloBoards(teamId, token).then((list) => live && setBoards(list));
    work
      .catch((error: unknown) => {
        if (!live) return;
        setProblem(importErrorText(i18n, error));
        if ((error as { status?: number }).status === 422) {
          setTrelloToken(null);
          setToken(null);
        }
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [token, config?.enabled, onBoardRoute, params.trelloBoardId, teamId]); // eslint-disable-line react-hooks/exhaustive-deps

  async function readFile(file: File) {
    setProblem(null);
    if (file.size > EXTERNAL_IMPORT_MAX_BYTES) return setProblem(t`The file is too large. It must be under ${EXTERNAL_IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
    let json: unknown;
    try {
      json = JSON.parse(await file.text());
    } catch {
      json = null;
    }
    const lists = trelloListsOf(json);
    if (!lists) return setProblem(t`This file is not a Trello board export (a JSON file from Trello’s “Print and export”).`);
    setPicked({ lists, source: { board: json, file_name: file.name } });
  }

  function connect() {
    if (!config?.authorize_url) return;
    rememberTrelloReturn(window.location.pathname);
    window.location.assign(`${config.authorize_url}&return_url=${encodeURIComponent(trelloReturnUrl())}`);
  }

  const importHref = pathFor('trello-import', { teamId, boardId: params.boardId, folderId: params.folderId });
  if (picked) {
    return (
      <Page narrow>
        <ListPicker teamId={teamId} boardId={params.boardId} folderId={params.folderId} lists={picked.lists} source={picked.source} onBack={onBoardRoute ? undefined : () => setPicked(null)} backHref={onBoardRoute ? importHref : undefined} />
      </Page>
    );
  }
  return (
    <Page narrow>
      {problem && (
        <p className="import-problem" role="alert">
          {problem}
        </p>
      )}
      {onBoardRoute ? (
        loading || config === null ? (
          <Spinner />
        ) : (
          <>
            {!problem && !config.enabled && (
              <p className="hint">
                <Trans>Connecting to Trello is not set up on this server. Import an export file instead.</Trans>
              </p>
            )}
            {!problem && config.enabled && !token && (
              <p className="hint">
                <Trans>Trello did not accept the connection. Connect to Trello again.</Trans>
              </p>
            )}
            <p>
              <Link to={importHref}>
                <Trans>Back to the Trello import</Trans>
              </Link>
            </p>
          </>
        )
      ) : (
        <>
          <section className="import-section">
            <h2>
              <Trans>From a Trello export file</Trans>
            </h2>
            <p className="hint">
              <Trans>In Trello, open the board’s menu, then “Print, export and share” → “Export as JSON”, and choose the file here.</Trans>
            </p>
            <input type="file" accept=".json,application/json" aria-label={t`Trello export file`} data-testid="trello-file" onChange={(e) => e.target.files?.[0] && void readFile(e.target.files[0])} />
          </section>
          <section className="import-section">
            <h2>
              <Trans>From your Trello account</Trans>
            </h2>
            {config === null ? (
              <Spinner />
            ) : !config.enabled ? (
              <p className="hint">
                <Trans>Connecting to Trello is not set up on this server. Import an export file instead.</Trans>
              </p>
            ) : !token ? (
              <Button onClick={connect} data-testid="trello-connect">
                <Trans>Connect to Trello</Trans>
              </Button>
            ) : loading ? (
              <Spinner />
            ) : (
              <>
                <ul className="import-boards" data-testid="trello-boards">
                  {(boards ?? []).map((b) => (
                    <li key={b.id}>
                      <Link to={pathFor('trello-import-board', { teamId, boardId: params.boardId, trelloBoardId: b.id, folderId: params.folderId })}>{b.name}</Link>
                      {b.closed && (
                        <span className="hint">
                          {' '}
                          <Trans>(closed)</Trans>
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
                {boards?.length === 0 && (
                  <p className="hint">
                    <Trans>Your Trello account has no boards.</Trans>
                  </p>
                )}
                <Button variant="ghost" size="sm" onClick={() => (setTrelloToken(null), setToken(null), setBoards(null))}>
                  <Trans>Disconnect Trello</Trans>
                </Button>
              </>
            )}
          </section>
        </>
      )}
    </Page>
  );
}

function ListPicker(props: { teamId: number; boardId: string; folderId: string; lists: TrelloBoardLists; source: TrelloSource; onBack?: () => void; backHref?: string }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(props.lists.lists.filter((l) => !l.closed).map((l) => l.id)));
  const [listsAs, setListsAs] = useState<TrelloListsAs>('folders');
  const [archived, setArchived] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const toggle = (id: string, on: boolean) => setChosen((prev) => {
    const next = new Set(prev);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  });
  async function start() {
    setProblem(null);
    // workspace.md §5: "choose at least one list to import".
    if (chosen.size === 0) return setProblem(t`Choose at least one list to import.`);
    setStarting(true);
    try {
      await startTrelloImport(props.teamId, props.boardId, { ...props.source, folder_id: props.folderId, list_ids: props.lists.lists.filter((l) => chosen.has(l.id)).map((l) => l.id), lists_as: listsAs, include_archived: archived });
      announceJobStarted();
      void navigate({ href: pathFor('folder', { rootId: props.boardId, folderId: props.folderId }) });
    } catch (error) {
      setProblem(importErrorText(i18n, error));
      setStarting(false);
    }
  }
  return (
    <div className="trello-lists" data-testid="trello-lists">
      <h2>{props.lists.name}</h2>
      <fieldset>
        <legend>
          <Trans>Lists to import</Trans>
        </legend>
        {props.lists.lists.map((l) => (
          <label key={l.id} className="inline-field">
            <input type="checkbox" checked={chosen.has(l.id)} onChange={(e) => toggle(l.id, e.target.checked)} />
            {l.name} <span className="hint">{l.closed ? t`(archived list, ${l.cards} cards)` : t`(${l.cards} cards)`}</span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>
          <Trans>Trello lists become</Trans>
        </legend>
        <label className="inline-field">
          <input type="radio" name="lists-as" checked={listsAs === 'folders'} onChange={() => setListsAs('folders')} />
          <Trans>Folders (one subfolder per list)</Trans>
        </label>
        <label className="inline-field">
          <input type="radio" name="lists-as" checked={listsAs === 'labels'} onChange={() => setListsAs('labels')} data-testid="trello-lists-as-labels" />
          <Trans>Label values (a “List” label in this folder)</Trans>
        </label>
      </fieldset>
      <label className="inline-field">
        <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} />
        <Trans>Import archived cards too</Trans>
      </label>
      <p className="hint">
        <Trans>Cards become items with their labels, due dates, members (matched by email or name), checklists, attachments as links and comments.</Trans>
      </p>
      {problem && (
        <p className="import-problem" role="alert">
          {problem}
        </p>
      )}
      <div className="import-actions">
        {props.onBack && (
          <Button variant="ghost" onClick={props.onBack}>
            <Trans>Back</Trans>
          </Button>
        )}
        {props.backHref && (
          <Link to={props.backHref}>
            <Trans>Back</Trans>
          </Link>
        )}
        <Button variant="primary" onClick={() => void start()} disabled={starting} data-testid="trello-start">
          {starting ? t`Starting…` : t`Import`}
        </Button>
      </div>
    </div>
  );
}
