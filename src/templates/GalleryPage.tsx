import { useEffect, useState, type FormEvent } from 'react';
import { Link, useMatches, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useLingui } from '@lingui/react';
import { Trans, useLingui as useMacroLingui } from '@lingui/react/macro';
import { pathFor, type RouteDef } from '../../schema/routes';
import { EmptyState } from '../ui/EmptyState';
import { Button } from '../ui/Button';
import { Page } from '../screens/Page';
import { useLoad } from '../screens/workspace/use-team';
import { Templates } from './api';
import { TemplateCard } from './TemplateCard';
import { galleryQuery, withQuery, type GalleryQuery } from './links';
import { GALLERY_TAGS, tagLabel } from './texts';
import './templates.css';
import { Waiting } from '../connectivity/Waiting';

/**
 * The template gallery: /templates (all), /templates/tags/{tagId} (one tag), /templates/search?q=
 * (words). Built-in templates come first, then the user's own and those shared with their
 * workspaces. teamId, boardId and folderId in the query are kept on every link.
 */
export default function GalleryPage() {
  const { i18n } = useLingui();
  const { t } = useMacroLingui();
  const navigate = useNavigate();
  const matches = useMatches();
  const routeName = (matches[matches.length - 1]?.staticData?.route as RouteDef | undefined)?.name;
  const { tagId } = useParams({ strict: false }) as { tagId?: string };
  const search = useSearch({ strict: false }) as GalleryQuery & { q?: string };
  const kept = galleryQuery(search);
  const q = routeName === 'templates.search' ? (search.q ?? '') : '';
  const [words, setWords] = useState(q);
  useEffect(() => setWords(q), [q]);
  const tag = routeName === 'templates.tag' ? tagId : undefined;
  const list = useLoad(() => Templates.gallery({ tag, q: q || undefined }), [tag, q]);

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    const text = words.trim();
    void navigate({ href: text ? withQuery(pathFor('templates.search'), { ...kept, q: text }) : withQuery(pathFor('templates.home'), kept) });
  };
  const title = tag ? tagLabel(i18n, tag) : q ? t`Templates matching “${q}”` : undefined;

  return (
    <Page title={title}>
      <div className="template-gallery">
        <nav className="template-tag-nav" aria-label={t`Tags`}>
          <ul>
            <li>
              <Link to={withQuery(pathFor('templates.home'), kept)} aria-current={!tag && !q ? 'page' : undefined}>
                <Trans>All templates</Trans>
              </Link>
            </li>
            {GALLERY_TAGS.map((id) => (
              <li key={id}>
                <Link to={withQuery(pathFor('templates.tag', { tagId: id }), kept)} aria-current={tag === id ? 'page' : undefined}>
                  {tagLabel(i18n, id)}
                </Link>
              </li>
            ))}
            <li>
              <Link to={pathFor('custom-templates')}>
                <Trans>My templates</Trans>
              </Link>
            </li>
          </ul>
        </nav>
        <div className="template-gallery-main">
          <form className="template-search" role="search" onSubmit={onSearch}>
            <input id="template-search-input" type="search" aria-label={t`Search templates`} value={words} placeholder={t`Search templates`} onChange={(e) => setWords(e.target.value)} maxLength={200} />
            <Button type="submit" variant="secondary">
              <Trans>Search</Trans>
            </Button>
          </form>
          {list.data === null && !list.failed && (
            <Waiting />
          )}
          {list.failed && <EmptyState title={t`The templates could not be loaded.`} />}
          {list.data && list.data.length === 0 && <EmptyState title={t`No template matches.`} />}
          {list.data && list.data.length > 0 && (
            <ul className="card-list" data-testid="template-gallery">
              {list.data.map((template) => (
                <TemplateCard key={template.id} template={template} href={withQuery(pathFor('templates.landing', { templateId: template.id }), kept)} />
              ))}
            </ul>
          )}
        </div>
      </div>
    </Page>
  );
}
