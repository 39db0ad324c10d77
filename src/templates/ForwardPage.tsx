import { useEffect } from 'react';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useWorkspaces } from '../api/workspaces-cache';
import { Page } from '../screens/Page';
import { createBoardHref } from './links';
import { useTemplate } from './load-template';
import { TemplateState } from './TemplateState';
import { UseTemplateForm } from './UseTemplateForm';
import { templateName } from './texts';

/**
 * /fwd/template-start/{templateId}: a link that starts a board from a template. With one
 * workspace it goes straight to that workspace's create-board screen with the template chosen;
 * with several the user picks one first. A template the user may not see says so.
 */
export default function ForwardPage() {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const { templateId } = useParams({ strict: false }) as { templateId: string };
  const [loaded] = useTemplate(templateId);
  const { list } = useWorkspaces();
  const only = list?.length === 1 ? list[0]!.id : null;
  const ready = loaded.state === 'ready' ? loaded.template : null;
  useEffect(() => {
    if (ready && only !== null) void navigate({ href: createBoardHref(only, ready.id, templateName(i18n, ready)), replace: true });
  }, [ready, only]); // eslint-disable-line react-hooks/exhaustive-deps
  if (loaded.state !== 'ready') {
    return (
      <Page>
        <TemplateState loaded={loaded} />
      </Page>
    );
  }
  return (
    <Page>
      <p>
        <Trans>Choose the workspace for the new board made from {templateName(i18n, loaded.template)}.</Trans>
      </p>
      <UseTemplateForm templateId={loaded.template.id} defaultName={templateName(i18n, loaded.template)} />
    </Page>
  );
}
