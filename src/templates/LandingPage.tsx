import { Link, useParams, useSearch } from '@tanstack/react-router';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import { Page } from '../screens/Page';
import { useTemplate } from './load-template';
import { TemplateState } from './TemplateState';
import { UseTemplateForm } from './UseTemplateForm';
import { galleryQuery, withQuery, type GalleryQuery } from './links';
import { tagLabel, templateDescription, templateName, viewKindLabel } from './texts';
import './templates.css';

/**
 * A template's landing page (templates.landing in the gallery, custom-templates.templates.landing
 * for a link someone shared): what it holds — attributes, views, the first items — and "Use
 * template". A template the user may not see says "not available or not shared".
 */
export default function LandingPage() {
  const { i18n } = useLingui();
  const { templateId } = useParams({ strict: false }) as { templateId: string };
  const search = useSearch({ strict: false }) as GalleryQuery;
  const [loaded] = useTemplate(templateId);
  if (loaded.state !== 'ready') {
    return (
      <Page>
        <TemplateState loaded={loaded} />
      </Page>
    );
  }
  const template = loaded.template;
  const name = templateName(i18n, template);
  const teamId = search.teamId !== undefined ? Number(search.teamId) : undefined;
  const items = template.content.items.slice(0, 8);
  return (
    <Page title={name}>
      <article className="template-landing" data-testid="template-landing">
        {template.cover_url && <img className="template-landing-cover" src={template.cover_url} alt="" />}
        <p className="template-description">{templateDescription(i18n, template)}</p>
        {template.owner_name && !template.builtin && (
          <p className="hint">
            <Trans>By {template.owner_name}</Trans>
          </p>
        )}
        {template.tags.length > 0 && (
          <ul className="template-tags">
            {template.tags.map((tag) => (
              <li key={tag}>
                <Link to={withQuery(pathFor('templates.tag', { tagId: tag }), galleryQuery(search))}>{tagLabel(i18n, tag)}</Link>
              </li>
            ))}
          </ul>
        )}
        <UseTemplateForm templateId={template.id} defaultName={name} teamId={teamId} />
        {template.mine && (
          <p>
            <Link to={pathFor('custom-templates.templates.edit', { templateId: template.id })}>
              <Trans>Edit template</Trans>
            </Link>
          </p>
        )}
        <div className="template-parts">
          <section>
            <h2>
              <Trans>Attributes</Trans>
            </h2>
            <ul>
              {template.content.attributes.map((attribute) => (
                <li key={attribute.id}>{attribute.name}</li>
              ))}
            </ul>
          </section>
          <section>
            <h2>
              <Trans>Views</Trans>
            </h2>
            <ul>
              {template.content.views.map((view) => (
                <li key={view.id}>
                  {view.name} <small className="hint">({viewKindLabel(i18n, view.kind)})</small>
                </li>
              ))}
            </ul>
          </section>
          {items.length > 0 && (
            <section>
              <h2>
                <Trans>Example items</Trans>
              </h2>
              <ul data-testid="template-items">
                {items.map((item) => (
                  <li key={item.id}>{item.name}</li>
                ))}
              </ul>
            </section>
          )}
        </div>
        <p>
          <Link to={withQuery(pathFor('templates.home'), galleryQuery(search))}>
            <Trans>Back to the gallery</Trans>
          </Link>
        </p>
      </article>
    </Page>
  );
}
