import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { TemplateSummary } from '../../schema/templates';
import { tagLabel, templateDescription, templateName } from './texts';

/** One template in a list: cover (image or colour), name, description, tags and what it holds. */
export function TemplateCard({ template, href, children }: { template: TemplateSummary; href: string; children?: React.ReactNode }) {
  const { i18n } = useLingui();
  const name = templateName(i18n, template);
  const { attributes, views, items } = template.counts;
  return (
    <li className="card template-card" data-testid="template-card" data-template-id={template.id}>
      <div className="template-cover" style={template.cover_url ? undefined : { background: template.color ?? 'var(--color-accent-soft, #E6F0FF)' }} aria-hidden="true">
        {template.cover_url && <img src={template.cover_url} alt="" loading="lazy" />}
      </div>
      <Link className="card-title" to={href}>
        {name}
      </Link>
      {templateDescription(i18n, template) && <p className="template-description">{templateDescription(i18n, template)}</p>}
      <p className="hint">
        <Trans>
          {attributes} attributes · {views} views · {items} items
        </Trans>
      </p>
      {template.tags.length > 0 && (
        <ul className="template-tags">
          {template.tags.map((tag) => (
            <li key={tag}>{tagLabel(i18n, tag)}</li>
          ))}
        </ul>
      )}
      {children}
    </li>
  );
}
