import { useEffect } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { Page } from '../Page';
import { attachmentUrl } from './redirect-target';

/**
 * attachment.download (/attachment/download?get=…&teamId=…&link=…): the link mails and
 * notifications use for a file. Starts the download and keeps a link in case the browser blocked
 * it; a link that names no file of ours says so.
 */
export default function AttachmentDownloadPage() {
  const query = new URLSearchParams(window.location.search);
  const url = attachmentUrl(query);
  const teamId = Number(query.get('teamId')) || null;
  useEffect(() => {
    if (!url) return;
    const a = document.createElement('a');
    a.href = url;
    a.download = '';
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
  }, [url]);
  const back = teamId ? pathFor('team.boards', { teamId }) : pathFor('home');
  return (
    <Page narrow>
      <div className="empty-state" data-testid="attachment-download">
        {url ? (
          <p>
            <Trans>Your download should start by itself.</Trans>{' '}
            <a href={url} download data-testid="attachment-link">
              <Trans>Download the file</Trans>
            </a>
          </p>
        ) : (
          <p role="alert">
            <Trans>This download link is incomplete or no longer valid. Open the item the file is attached to and download it from there.</Trans>
          </p>
        )}
        <Link to={back} className="ui-button ui-button--secondary ui-button--md">
          <Trans>Back to your boards</Trans>
        </Link>
      </div>
    </Page>
  );
}
