import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { DeferredTransport, DocPresence, type RemoteEditor } from './presence';
import type { DocBody } from './doc-body';

/**
 * The presence of one open document (decision 0218): created with the body and ended with it (a
 * final "left" event), its link to the realtime server loaded on demand. Undefined while being
 * made; null for an anonymous visitor (the presence channel is for signed-in members only).
 */
export function useDocPresence(body: DocBody | null, teamId: number, boardId: string, itemId: string, userId: number | null, nameOf: (userId: string) => string): DocPresence | null | undefined {
  const [presence, setPresence] = useState<{ body: DocBody; presence: DocPresence | null } | null>(null);
  const names = useRef(nameOf);
  names.current = nameOf;

  useEffect(() => {
    if (!body) return;
    if (userId === null) {
      setPresence({ body, presence: null });
      return;
    }
    const transport = new DeferredTransport(() => import('./presence-link').then((m) => m.openPresenceLink(teamId, boardId)));
    const next = new DocPresence(body.doc, itemId, transport, (id) => names.current(id));
    setPresence({ body, presence: next });
    // A page going away says so while it still can (a closed tab, a navigation); one back from the
    // back/forward cache is here again. Without this (a killed browser), the others drop the caret
    // when the member leaves the channel or, at the latest, when the state goes stale (presence.ts).
    const hide = () => next.leave();
    const show = (event: PageTransitionEvent) => event.persisted && next.rejoin();
    window.addEventListener('pagehide', hide);
    window.addEventListener('pageshow', show);
    return () => {
      window.removeEventListener('pagehide', hide);
      window.removeEventListener('pageshow', show);
      next.destroy();
      transport.close();
    };
  }, [body, teamId, boardId, itemId, userId]);

  // A presence made for an earlier body is not this one's.
  return presence && presence.body === body ? presence.presence : undefined;
}

const NONE: RemoteEditor[] = [];

/** The others in the document now, kept current. */
export function useRemoteEditors(presence: DocPresence | null): RemoteEditor[] {
  const cache = useRef<{ key: string; list: RemoteEditor[] }>({ key: '', list: NONE });
  return useSyncExternalStore(
    (onChange) => presence?.subscribe(onChange) ?? (() => undefined),
    () => {
      if (!presence) return NONE;
      const list = presence.remote();
      const key = list.map((r) => `${r.clientId}:${r.userId}`).join(',');
      if (key !== cache.current.key) cache.current = { key, list };
      return cache.current.list;
    },
  );
}
