import { Trans } from '@lingui/react/macro';
import { Eye } from 'lucide-react';
import { previewExitHref } from '../navigation/preview';
import './preview-badge.css';

/**
 * The frame's "Preview" badge (decision 0280): shown for as long as the tab is in preview (pretend)
 * mode, with the way out. Preview mode lives in the page's memory, so leaving it is a full load of
 * the same address without `pretend`; the tab's preview database goes with the page.
 */
export default function PreviewBadgeContent() {
  return (
    <div className="shell-preview-badge" role="status" data-testid="preview-badge">
      <Eye size={14} aria-hidden="true" />
      <strong>
        <Trans>Preview</Trans>
      </strong>
      <span className="shell-preview-badge-note">
        <Trans>Changes stay in this tab and are not saved.</Trans>
      </span>
      <button type="button" className="shell-preview-badge-exit" data-testid="preview-exit" onClick={() => window.location.assign(previewExitHref(window.location))}>
        <Trans>Leave preview</Trans>
      </button>
    </div>
  );
}
