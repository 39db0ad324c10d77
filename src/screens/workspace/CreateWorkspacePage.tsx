import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Workspaces } from '../../api/endpoints';
import { ApiRequestError } from '../../api/client';
import { workspaces } from '../../api/workspaces-cache';
import { OnlineOnly } from '../../connectivity/OnlineOnly';
import { fireWorkspaceLimitExceeded, WORKSPACE_LIMIT_ERROR_TYPE } from '../../navigation/workspace-limit';
import { Field, SubmitButton, useFormAction } from '../forms';
import { Page } from '../Page';
import { FormError } from '../auth/AuthFrame';

export default function CreateWorkspacePage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const { onSubmit, busy, error, fieldError } = useFormAction(
    async () => {
      const created = await Workspaces.create(name.trim());
      await workspaces.refresh().catch(() => {});
      await navigate({ href: pathFor('team.members', { teamId: created.id }) });
    },
    {
      // The plan's limit is not a form error: the shell shows its dialog (workspaceLimitExceeded).
      onError: (err) => {
        if (!(err instanceof ApiRequestError && err.type === WORKSPACE_LIMIT_ERROR_TYPE)) return false;
        fireWorkspaceLimitExceeded();
        return true;
      },
    },
  );
  return (
    <Page narrow>
      <OnlineOnly>
        <form onSubmit={onSubmit} className="form" noValidate>
          <Field label={t`Workspace name`} name="name" required maxLength={255} autoFocus error={fieldError('name')} value={name} onChange={(e) => setName(e.target.value)} />
          <FormError message={error} />
          <SubmitButton busy={busy}>
            <Trans>Create workspace</Trans>
          </SubmitButton>
        </form>
      </OnlineOnly>
    </Page>
  );
}
