import { useProgress } from './progress';

export function ProgressBar() {
  const active = useProgress();
  return <div className={`shell-progress${active ? ' is-active' : ''}`} role="progressbar" aria-hidden={!active} aria-label="Loading" data-testid="progress" />;
}
