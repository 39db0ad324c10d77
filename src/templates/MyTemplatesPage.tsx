import { Link, useMatches } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor, type RouteDef } from '../../schema/routes';
import { Button } from '../ui/Button';
import { EmptyState } from '../ui/EmptyState';
import { confirm } from '../ui/confirm-store';
import { toast } from '../ui/toast-store';
import { showApiError } from '../api/handle-error';
import { Page } from '../screens/Page';
import { useLoad } from '../screens/workspace/use-team';
import { Templates } from './api';
import { TemplateCard } from './TemplateCard';
import './templates.css';
import { Waiting } from '../connectivity/Waiting';

/**
 * /profile/templates: the user's own templates (edit, delete, open); /profile/templates/shared:
 * templates others shared with the user's workspaces. Saving a board as a template is on the
 * board's settings page.
 */
export default function MyTemplatesPage() {
  const { t } = useLingui();
  const matches = useMatches();
  const shared = (matches[matches.length - 1]?.staticData?.route as RouteDef | undefined)?.name === 'custom-templates.shared';
  const list = useLoad(() => (shared ? Templates.sharedWithMe() : Templates.mine()), [shared]);
  const remove = async (id: string, name: string) => {
    if (!(await confirm({ message: t`Delete the template ${name}? Boards made from it stay.`, danger: true }))) return;
    try {
      await Templates.remove(id);
      toast.show(t`Template deleted.`, { kind: 'success' });
      list.reload();
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <Page>
      <nav className="template-subnav" aria-label={t`Templates`}>
        <Link to={pathFor('custom-templates')} aria-current={!shared ? 'page' : undefined}>
          <Trans>My templates</Trans>
        </Link>
        <Link to={pathFor('custom-templates.shared')} aria-current={shared ? 'page' : undefined}>
          <Trans>Shared with me</Trans>
        </Link>
        <Link to={pathFor('templates.home')}>
          <Trans>Template gallery</Trans>
        </Link>
      </nav>
      {list.data === null && !list.failed && (
        <Waiting />
      )}
      {list.data?.length === 0 &&
        (shared ? (
          <EmptyState title={t`No one has shared a template with your workspaces yet.`} />
        ) : (
          <EmptyState title={t`You have no templates yet.`} text={t`Open a board's settings and choose “Save as template”.`} />
        ))}
      {list.data && list.data.length > 0 && (
        <ul className="card-list" data-testid="my-templates">
          {list.data.map((template) => (
            <TemplateCard key={template.id} template={template} href={pathFor('custom-templates.templates.landing', { templateId: template.id, ...(shared ? { shared: 'shared' } : {}) })}>
              {!shared && (
                <div className="card-links">
                  <Link to={pathFor('custom-templates.templates.edit', { templateId: template.id })}>
                    <Trans>Edit</Trans>
                  </Link>
                  <Button variant="secondary" onClick={() => void remove(template.id, template.name)}>
                    <Trans>Delete</Trans>
                  </Button>
                </div>
              )}
            </TemplateCard>
          ))}
        </ul>
      )}
    </Page>
  );
}
