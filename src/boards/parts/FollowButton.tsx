import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { api } from '../../api/client';
import { showApiError } from '../../api/handle-error';
import { Button } from '../../ui/Button';

/**
 * Follow / unfollow an item from its panel (workspace.md §4; W2.15): GET/PUT/DELETE
 * /api/{teamId}/items/{itemId}/follow. Followers are told of comments on the item; following it by
 * hand tells its other followers "… subscribed to …" (server/notifications/follows.ts). Online
 * only: while the state is unknown (offline, an item not on the server yet) no button is shown.
 */
export function FollowButton({ teamId, itemId }: { teamId: number; itemId: string }) {
  const { t } = useLingui();
  const [following, setFollowing] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const path = `/api/${teamId}/items/${encodeURIComponent(itemId)}/follow`;

  useEffect(() => {
    let live = true;
    setFollowing(null);
    api.get<{ following: boolean }>(path).then(
      (answer) => live && setFollowing(answer.following),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [path]);

  if (following === null) return null;
  const toggle = async () => {
    setBusy(true);
    try {
      const answer = following ? await api.delete<{ following: boolean }>(path) : await api.put<{ following: boolean }>(path);
      setFollowing(answer.following);
    } catch (error) {
      showApiError(error);
    } finally {
      setBusy(false);
    }
  };
  // Wrapped: on a phone the header's own buttons are hidden (the Back bar closes), this one stays.
  return (
    <span className="item-follow">
      <Button variant={following ? 'ghost' : 'secondary'} size="sm" disabled={busy} onClick={() => void toggle()} data-testid="item-follow" data-following={following}>
        {following ? t`Unfollow` : t`Follow`}
      </Button>
    </span>
  );
}
