import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useLingui as useI18n } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { LayoutTemplate, SquareDashed } from 'lucide-react';
import { pathFor } from '../../../schema/routes';
import type { TemplateDetail, TemplateSummary } from '../../../schema/templates';
import { useTeamId } from '../../screens/workspace/use-team';
import { useWorkspaces } from '../../api/workspaces-cache';
import { showApiError } from '../../api/handle-error';
import { Page } from '../../screens/Page';
import { Button } from '../../ui/Button';
import { AttributeKindIcon, ViewKindIcon } from '../../ui/kind-icons';
import { createBoard } from '../store/actions';
import { WithBackend } from './with-backend';
import { CreateFromTemplate } from '../../templates/CreateFromTemplate';
import { Templates } from '../../templates/api';
import { templateDescription, templateName } from '../../templates/texts';
import '../boards.css';
import '../board-look.css';

/** How many templates the page offers beside "Blank board" (the gallery has the rest). */
const OFFERED_TEMPLATES = 5;

/**
 * create-board (/team/{teamId}/boards/create?name=&start=&template=): the board's name, what it
 * starts from (blank, or one of the first templates of the gallery) and a preview of what it will
 * hold (issue #17 part 4). A blank board works offline (made locally, synced later); a template is
 * made on the server. `template` names a template to start from (src/templates/CreateFromTemplate.tsx);
 * `start=template` opens the gallery first (it replaces this page in the history).
 */
export default function CreateBoardPage() {
  const { t } = useLingui();
  const { i18n } = useI18n();
  const teamId = useTeamId();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { name?: string; start?: string; template?: string };
  const workspace = useWorkspaces().list?.find((w) => w.id === teamId);
  const [name, setName] = useState(search.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [templates, setTemplates] = useState<TemplateSummary[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [details, setDetails] = useState<Record<string, TemplateDetail>>({});

  // `start=template` opens the template gallery first (S2.17); a named template wins over it.
  const galleryFirst = search.start === 'template' && !search.template;
  useEffect(() => {
    if (galleryFirst) void navigate({ href: `${pathFor('templates.home')}?teamId=${teamId}`, replace: true });
  }, [galleryFirst, navigate, teamId]);
  // The gallery's first templates (built-ins first); offline the page offers a blank board only.
  useEffect(() => {
    if (search.template) return;
    let live = true;
    Templates.gallery().then(
      (list) => live && setTemplates(list.slice(0, OFFERED_TEMPLATES)),
      () => live && setTemplates([]),
    );
    return () => {
      live = false;
    };
  }, [search.template]);
  // A chosen template's content, for the preview.
  useEffect(() => {
    if (!chosen || details[chosen]) return;
    let live = true;
    Templates.open(chosen).then(
      (detail) => live && setDetails((d) => ({ ...d, [chosen]: detail })),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [chosen, details]);

  if (galleryFirst) return null;
  if (search.template) {
    return (
      <Page title={t`New board`} narrow>
        <CreateFromTemplate teamId={teamId} templateId={String(search.template)} initialName={search.name} />
      </Page>
    );
  }
  const chosenSummary = templates?.find((tpl) => tpl.id === chosen) ?? null;
  const shownName = name.trim() || (chosenSummary ? templateName(i18n, chosenSummary) : t`Untitled board`);

  return (
    <Page title={t`New board`}>
      <WithBackend>
        {(backend) => (
          <div className="create-board">
            <form
              className="board-form create-board-form"
              data-testid="create-board-form"
              noValidate
              onSubmit={async (event: FormEvent) => {
                event.preventDefault();
                const boardName = name.trim() || (chosenSummary ? templateName(i18n, chosenSummary) : '');
                if (!boardName) return setError(t`enter the board name`);
                setBusy(true);
                try {
                  const id = chosen ? (await Templates.use(teamId, chosen, boardName)).board_id : await createBoard(backend, teamId, boardName);
                  await navigate({ href: pathFor('board', { rootId: id }) });
                } catch (err) {
                  showApiError(err);
                  setBusy(false);
                }
              }}
            >
              {workspace && (
                <p className="hint" data-testid="create-board-workspace">
                  <Trans>In the workspace {workspace.name}</Trans>
                </p>
              )}
              <label>
                <Trans>Board name</Trans>
                <input autoFocus name="name" value={name} placeholder={chosenSummary ? templateName(i18n, chosenSummary) : t`For example: Product launch`} aria-invalid={error ? true : undefined} aria-describedby={error ? 'board-name-error' : undefined} onChange={(e) => (setName(e.target.value), setError(null))} />
              </label>
              {error && (
                <p className="field-error" id="board-name-error" role="alert">
                  {error}
                </p>
              )}
              <fieldset className="create-board-start">
                <legend>
                  <Trans>Start with</Trans>
                </legend>
                <label className={`create-board-choice${chosen === null ? ' is-chosen' : ''}`}>
                  <input type="radio" name="start" checked={chosen === null} onChange={() => setChosen(null)} />
                  <SquareDashed size={18} aria-hidden="true" />
                  <span>
                    <strong>
                      <Trans>Blank board</Trans>
                    </strong>
                    <small>
                      <Trans>A name column and a table; add what you need.</Trans>
                    </small>
                  </span>
                </label>
                {(templates ?? []).map((tpl) => (
                  <label key={tpl.id} className={`create-board-choice${chosen === tpl.id ? ' is-chosen' : ''}`} data-testid="create-board-template">
                    <input type="radio" name="start" checked={chosen === tpl.id} onChange={() => setChosen(tpl.id)} />
                    <span className="create-board-swatch" style={{ background: tpl.color ?? 'var(--color-primary-soft)' }} aria-hidden="true" />
                    <span>
                      <strong>{templateName(i18n, tpl)}</strong>
                      <small>{templateDescription(i18n, tpl)}</small>
                    </span>
                  </label>
                ))}
                {templates === null && (
                  <p className="hint">
                    <Trans>Loading templates…</Trans>
                  </p>
                )}
                <Link className="create-board-gallery" to={`${pathFor('templates.home')}?teamId=${teamId}`}>
                  <LayoutTemplate size={15} aria-hidden="true" />
                  <Trans>All templates</Trans>
                </Link>
              </fieldset>
              <div className="board-form-actions">
                <Button type="button" variant="secondary" onClick={() => void navigate({ href: pathFor('team.boards', { teamId }) })}>
                  <Trans>Cancel</Trans>
                </Button>
                <Button type="submit" variant="primary" disabled={busy}>
                  <Trans>Create board</Trans>
                </Button>
              </div>
            </form>
            <BoardPreview name={shownName} detail={chosen ? (details[chosen] ?? null) : null} loading={chosen !== null && !details[chosen]} />
          </div>
        )}
      </WithBackend>
    </Page>
  );
}

/** What the new board will look like: its name, views, columns and first items (a picture, not a board). */
function BoardPreview({ name, detail, loading }: { name: string; detail: TemplateDetail | null; loading: boolean }) {
  const { t } = useLingui();
  const content = detail?.content;
  const rootViews = content ? content.views.filter((v) => v.folder_id === content.root_id).sort((a, b) => a.position - b.position) : [{ id: 'table', name: t`Table`, kind: 'table' }];
  const columns = content ? content.attributes.filter((a) => a.kind !== 'primary' && !a.hidden).sort((a, b) => a.position - b.position).slice(0, 3) : [];
  const rows = content ? content.items.slice(0, 4).map((i) => i.name) : [];
  return (
    <section className="create-board-preview" aria-label={t`Preview`} data-testid="create-board-preview" aria-busy={loading || undefined}>
      <p className="create-board-preview-label">
        <Trans>Preview</Trans>
      </p>
      <div className="create-board-preview-frame" aria-hidden="true">
        <strong className="create-board-preview-title">{name}</strong>
        <div className="create-board-preview-tabs">
          {rootViews.slice(0, 4).map((v) => (
            <span key={v.id}>
              <ViewKindIcon kind={v.kind} size={13} />
              {v.name}
            </span>
          ))}
        </div>
        <div className="create-board-preview-table" style={{ gridTemplateColumns: `minmax(0, 2fr) repeat(${columns.length}, minmax(0, 1fr))` }}>
          <span className="is-head">
            <AttributeKindIcon kind="primary" size={12} />
            {t`Name`}
          </span>
          {columns.map((c) => (
            <span key={c.id} className="is-head">
              <AttributeKindIcon kind={c.kind} size={12} />
              {c.name}
            </span>
          ))}
          {(rows.length ? rows : ['', '', '']).map((row, i) => (
            <RowCells key={i} name={row} columns={columns.length} />
          ))}
        </div>
      </div>
    </section>
  );
}

function RowCells({ name, columns }: { name: string; columns: number }) {
  return (
    <>
      <span>{name || <i className="create-board-preview-bar" />}</span>
      {Array.from({ length: columns }, (_, i) => (
        <span key={i}>
          <i className="create-board-preview-bar is-short" />
        </span>
      ))}
    </>
  );
}
