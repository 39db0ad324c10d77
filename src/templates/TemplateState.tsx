import { useLingui } from '@lingui/react';
import { Trans, useLingui as useMacroLingui } from '@lingui/react/macro';
import { Messages } from '../../schema/messages';
import { TemplateMessages } from '../../schema/templates';
import { translateMessage } from '../i18n/server-messages';
import { EmptyState } from '../ui/EmptyState';
import type { LoadedTemplate } from './load-template';
import { templateMessage } from './texts';
import { Waiting } from '../connectivity/Waiting';

/** What a template screen shows while its template is not there: loading, offline, not available. */
export function TemplateState({ loaded }: { loaded: Exclude<LoadedTemplate, { state: 'ready' }> }) {
  const { i18n } = useLingui();
  const { t } = useMacroLingui();
  if (loaded.state === 'loading')
    return (
      <Waiting />
    );
  if (loaded.state === 'offline') return <EmptyState title={translateMessage(Messages.offlineFeature)} />;
  return <EmptyState title={templateMessage(i18n, loaded.message.includes(TemplateMessages.notAvailable) ? TemplateMessages.notAvailable : loaded.message) || t`Not Found`} />;
}
