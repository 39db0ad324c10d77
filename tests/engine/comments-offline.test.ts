import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/test-server';
import { mentionedUserIds } from '../../schema/comment-html';
import { CommentCommands } from '../../src/boards/comments/comment-commands';
import type { BoardBackend } from '../../src/boards/store/backend';
import { createClient, createWorld, newItem, wire, type Client, type World } from './harness';

/**
 * The comment box's writes (src/boards/comments/comment-commands.ts) through the real engine and
 * server: written offline they are in the replica at once and reach the server when the
 * connection is back, mention and reaction included; nothing is dropped.
 */
let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(() => world.close());

function backendOf(c: Client, userId: number): BoardBackend {
  return {
    userId,
    db: c.db.relaxed,
    save: (collection, record, options) => c.engine.save(collection, record, options),
    remove: (collection, id, options) => c.engine.delete(collection, id, options),
  } as BoardBackend;
}

const serverComments = async (itemId: string) => {
  const res = await api(world.server.app, 'GET', `/api/${world.teamId}/comments/multiple?item_ids=${itemId}`, { token: world.owner.token });
  return res.json() as { data: any[]; reactions: any[] };
};

describe('comments offline', () => {
  it('a comment, a reply and a reaction written offline show locally at once and sync when back online', async () => {
    const w = wire();
    const c = await createClient(world, { token: world.owner.tokens, userId: world.owner.user.id, fetch: w.fetch });
    const item = newItem(world, { name: 'Talk about me' });
    await c.engine.save('item', item, { teamId: world.teamId });
    await c.engine.idle();

    c.engine.connection.networkFailure();
    const commands = new CommentCommands(backendOf(c, world.owner.user.id), world.teamId, world.boardId);
    const html = `<p>Offline note for <span data-mention="${world.owner.user.id}">@Engine Owner</span></p>`;
    const id = await commands.add(item.id, html);
    const replyId = await commands.add(item.id, '<p>and a reply</p>', id);
    await commands.toggleReaction(id, '👍', null);
    const sentOffline = w.calls.length;

    // In the replica at once, with the author set for the "own comment" checks.
    expect(await c.local('comment', id)).toMatchObject({ id, item_id: item.id, parent_id: null, created_by: world.owner.user.id, text: { html } });
    expect(await c.local('comment', replyId)).toMatchObject({ parent_id: id });
    expect((await serverComments(item.id)).data).toEqual([]);
    expect(w.calls.length).toBe(sentOffline);

    c.engine.connection.browserOnline();
    await c.engine.idle();
    const stored = await serverComments(item.id);
    expect(stored.data.map((x) => x.id).sort()).toEqual([id, replyId].sort());
    expect(mentionedUserIds(stored.data.find((x) => x.id === id).text.html)).toEqual([world.owner.user.id]);
    expect(stored.reactions).toMatchObject([{ comment_id: id, reaction: '👍', user_id: world.owner.user.id }]);
    expect(await c.db.relaxed.failedRequests.count()).toBe(0);

    // Edited and taken back online: the server marks the edit, the reaction goes.
    const local = (await c.local('comment', id)) as any;
    await commands.edit(local, '<p>Edited note</p>');
    const mine = (await serverComments(item.id)).reactions[0].id as string;
    await commands.toggleReaction(id, '👍', mine);
    await c.engine.idle();
    const after = await serverComments(item.id);
    expect(after.data.find((x) => x.id === id)).toMatchObject({ text: { html: '<p>Edited note</p>' } });
    expect(after.data.find((x) => x.id === id).edited_at).toEqual(expect.any(String));
    expect(after.reactions).toEqual([]);
    c.close();
  });
});
