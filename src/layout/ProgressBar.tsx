import { useLingui } from '@lingui/react/macro';
import { useProgress } from './progress';

/** The thin bar at the top during named route changes (shell.md §2). */
export function ProgressBar() {
  const active = useProgress();
  const { t } = useLingui();
  return <div className={`shell-progress${active ? ' is-active' : ''}`} role="progressbar" aria-hidden={!active} aria-label={t`Loading`} data-testid="progress" />;
}
