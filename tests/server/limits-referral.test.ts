import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { attribute, board, item, newId } from './sync-fixtures';
import { Messages } from '../../schema/messages';
import { appendEvents, registerEventFloor } from '../../server/events/outbox';
import { GB, storageLevel } from '../../server/billing/storage-limit';
import { parseEmails } from '../../server/referral/service';
import { MAIL_WINDOW_MS } from '../../server/notifications/mail';

/**
 * Plan limits everywhere and the referral programme (issue #18, decision 0260), on PGlite and
 * PostgreSQL: storage by plan (warning at 80 % by the storage-limits consumer once per crossing,
 * uploads refused at 100 %), Pro-only views refused on a plan without them, the old subscription
 * and features calls on effective limits, referral links, attribution at sign-up, invitations,
 * and 20 % of a paid invoice credited exactly once.
 */

type Signed = Awaited<ReturnType<typeof createUserWithToken>>;

describe('plan limits and referral', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  /** A workspace made through the API (so on the owner's free subscription) with a board, an item and a files attribute. */
  async function workspace(owner: Signed) {
    const created = await api(server.app, 'POST', '/api/teams', { token: owner.token, body: { name: 'Limits' } });
    expect(created.statusCode, created.body).toBe(201);
    const teamId = created.json().data.id as number;
    const b = board();
    const i = item(b.id);
    const files = attribute(b.id, { kind: 'attachments', name: 'Files' });
    for (const [route, rec] of [['folders', b], ['items', i], ['attributes', files]] as const) {
      const res = await api(server.app, 'PUT', `/api/${teamId}/${route}/${rec.id}`, { token: owner.token, body: rec });
      expect(res.statusCode, res.body).toBe(200);
    }
    const team = await server.ctx.db.selectFrom('teams').select('subscription_id').where('id', '=', teamId).executeTakeFirstOrThrow();
    return { teamId, b, i, subscriptionId: team.subscription_id! };
  }

  function upload(teamId: number, itemId: string, size: number, token: string) {
    const boundary = '----cairn' + Math.random().toString(16).slice(2);
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      Buffer.alloc(size, 7),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return server.app.inject({ method: 'POST', url: `/api/${teamId}/attachments?item_id=${itemId}`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } });
  }

  /** Stands for earlier uploads: sets the workspace's figure (the sum of its upload rows in real use). */
  async function setFigure(teamId: number, bytes: number) {
    await sql`insert into workspace_storage (team_id, bytes_used) values (${teamId}, ${bytes}) on conflict (team_id) do update set bytes_used = excluded.bytes_used`.execute(server.ctx.db);
  }

  async function storageNotes(userId: number) {
    await server.ctx.jobs.drain();
    return server.ctx.db
      .selectFrom('notifications')
      .select(['notification_type', 'usage', 'limit', 'team_id'])
      .where('user_id', '=', userId)
      .where('notification_type', 'in', ['storage_warning', 'storage_exceeded'])
      .orderBy('id')
      .execute();
  }

  describe('storage by plan', () => {
    it('warns once at 80 % (not at 79 %), refuses uploads past 100 % with the spec’s text, warns again after a new crossing', async () => {
      const owner = await createUserWithToken(server.ctx);
      const w = await workspace(owner);
      // The free plan: 1 GB for all the workspaces of the subscription.
      const limit = 1 * GB;
      const at79 = Math.floor(limit * 0.79);
      const at80 = Math.ceil(limit * 0.8);

      await setFigure(w.teamId, at79 - 100);
      expect((await upload(w.teamId, w.i.id, 100, owner.token)).statusCode).toBe(200);
      expect(await storageNotes(owner.user.id)).toEqual([]);

      await setFigure(w.teamId, at80 - 100);
      expect((await upload(w.teamId, w.i.id, 100, owner.token)).statusCode).toBe(200);
      const warned = await storageNotes(owner.user.id);
      expect(warned).toEqual([{ notification_type: 'storage_warning', usage: at80, limit, team_id: w.teamId }]);

      // Still between 80 % and 100 %: no second warning.
      expect((await upload(w.teamId, w.i.id, 100, owner.token)).statusCode).toBe(200);
      expect(await storageNotes(owner.user.id)).toHaveLength(1);

      // Exactly 100 % is allowed and tells the owner storage is full; one byte more is refused.
      await setFigure(w.teamId, limit - 100);
      expect((await upload(w.teamId, w.i.id, 100, owner.token)).statusCode).toBe(200);
      const refused = await upload(w.teamId, w.i.id, 1, owner.token);
      expect(refused.statusCode).toBe(413);
      expect(refused.json()).toEqual({ message: Messages.storageFull, type: 'storage_full' });
      const notes = await storageNotes(owner.user.id);
      // Reaching 100 % told the owner; so did the refusal (what the upload would have made it), once a day.
      expect(notes.map((n) => n.notification_type)).toEqual(['storage_warning', 'storage_exceeded', 'storage_exceeded']);
      expect(notes[1]).toMatchObject({ usage: limit, limit });
      expect(notes[2]).toMatchObject({ usage: limit + 1, limit });
      expect((await upload(w.teamId, w.i.id, 5, owner.token)).statusCode).toBe(413);
      expect(await storageNotes(owner.user.id)).toHaveLength(3);

      // Freed below 80 % and crossed again: a new warning.
      await setFigure(w.teamId, at80 - 100);
      expect((await upload(w.teamId, w.i.id, 100, owner.token)).statusCode).toBe(200);
      expect((await storageNotes(owner.user.id)).map((n) => n.notification_type)).toEqual(['storage_warning', 'storage_exceeded', 'storage_exceeded', 'storage_warning']);

      // The notification list carries usage and limit.
      const list = (await api(server.app, 'GET', '/api/notifications', { token: owner.token })).json().data as any[];
      expect(list.find((n) => n.notification_type === 'storage_warning')).toMatchObject({ usage: at80, limit });
      // And the batched mail says so, like the other types (the next mail window).
      const now = server.ctx.now().getTime();
      server.advance(MAIL_WINDOW_MS - (now % MAIL_WINDOW_MS) + 1000);
      await server.ctx.jobs.drain();
      const mail = (await server.outbox()).filter((m) => m.to === owner.user.email).at(-1);
      expect(mail?.text).toContain('Your workspace has used 80% of its storage');
      expect(mail?.text).toContain('Your workspace’s storage is full: uploads are blocked');
    });

    it('counts all the workspaces of a subscription together, and a bigger plan has more room', async () => {
      const owner = await createUserWithToken(server.ctx);
      const a = await workspace(owner);
      await server.ctx.db.updateTable('subscriptions').set({ limits: JSON.stringify({ workspaces: 5, members: 50, storage: 1, AutomationRunsLimit: 100, WhitelabelLimit: 0, proViews: false }) }).where('id', '=', a.subscriptionId).execute();
      const b = await workspace(owner);
      expect(b.subscriptionId).toBe(a.subscriptionId);
      await setFigure(a.teamId, GB - 50);
      expect((await upload(b.teamId, b.i.id, 100, owner.token)).statusCode).toBe(413);
      const usage = (await api(server.app, 'GET', `/api/teams/${b.teamId}/usage`, { token: owner.token })).json().data;
      expect(usage).toEqual({ storage_used: 0, storage_limit: GB, subscription_storage_used: GB - 50 });
      // On Pro (100 GB) the same upload fits.
      await server.ctx.db.updateTable('subscriptions').set({ limits: JSON.stringify({ workspaces: 5, members: 50, storage: 100, AutomationRunsLimit: 25000, WhitelabelLimit: 0, proViews: true }) }).where('id', '=', a.subscriptionId).execute();
      expect((await upload(b.teamId, b.i.id, 100, owner.token)).statusCode).toBe(200);
    });

    it('names the thresholds at 79 / 80 / 100 %', () => {
      expect(storageLevel(79, 100)).toBe(0);
      expect(storageLevel(80, 100)).toBe(1);
      expect(storageLevel(99, 100)).toBe(1);
      expect(storageLevel(100, 100)).toBe(2);
    });
  });

  describe('Pro-only views', () => {
    const view = (boardId: string, kind: string) => ({ id: newId(), board_id: boardId, folder_id: boardId, name: kind, kind, settings: {}, row_version: 1 });

    it('refuses a Gantt or Chart view on the free plan, allows it on a trial of Pro, refuses changing it once the trial ended', async () => {
      const owner = await createUserWithToken(server.ctx);
      const w = await workspace(owner);
      const put = (rec: Record<string, unknown> & { id: string }) => api(server.app, 'PUT', `/api/${w.teamId}/folder-views/${rec.id}`, { token: owner.token, body: rec });
      expect((await put(view(w.b.id, 'table'))).statusCode).toBe(200);
      for (const kind of ['gantt', 'chart']) {
        const refused = await put(view(w.b.id, kind));
        expect(refused.statusCode, kind).toBe(403);
        expect(refused.json()).toMatchObject({ message: Messages.proViewNeedsUpgrade, type: 'pro_view' });
      }
      const features = async () => (await api(server.app, 'GET', `/api/${w.teamId}/features`, { token: owner.token })).json().data.flags;
      expect((await features()).pro_views).toBe(false);

      const trial = await api(server.app, 'POST', '/api/subscription', { token: owner.token, body: { plan: 'pro', trial: true } });
      expect(trial.statusCode, trial.body).toBe(200);
      expect((await features()).pro_views).toBe(true);
      const gantt = view(w.b.id, 'gantt');
      expect((await put(gantt)).statusCode).toBe(200);

      // The trial ended: the free plan's limits again, and the workspace is read-only until a plan is
      // bought (W4.3, decision 0360): the view stays; changing or removing it is refused, in the spec's words.
      await server.ctx.db.updateTable('subscriptions').set({ trial_ends_at: new Date(Date.now() - 1000), ends_at: new Date(Date.now() - 1000) }).where('id', '=', w.subscriptionId).execute();
      expect((await features()).pro_views).toBe(false);
      const renamed = await put({ ...gantt, name: 'Renamed', row_version: 2 });
      expect(renamed.statusCode).toBe(403);
      expect(renamed.json()).toMatchObject({ type: 'workspace_read_only', message: Messages.trialExpired });
      const removed = await api(server.app, 'DELETE', `/api/${w.teamId}/folder-views/${gantt.id}`, { token: owner.token });
      expect(removed.statusCode).toBe(403);
      expect(removed.json()).toMatchObject({ type: 'workspace_read_only' });

      // GET /api/subscription answers the effective limits (the free plan's now), not the stored Pro ones.
      const subs = (await api(server.app, 'GET', '/api/subscription', { token: owner.token })).json().data as any[];
      expect(subs.find((s) => s.id === w.subscriptionId).limits).toMatchObject({ proViews: false, storage: 1, workspaces: 1 });
    });

    it('a board made from a template keeps its Pro views on the free plan (only making one is gated)', async () => {
      const owner = await createUserWithToken(server.ctx);
      const w = await workspace(owner);
      // The CRM pipeline template has a Chart view.
      const made = await api(server.app, 'POST', `/api/${w.teamId}/templates/crm-pipeline/use`, { token: owner.token, body: { name: 'Deals' } });
      expect(made.statusCode, made.body).toBe(201);
      const boardId = made.json().data.board_id as string;
      const views = (await api(server.app, 'GET', `/api/${w.teamId}/folder-views?board_id=${boardId}`, { token: owner.token })).json().data as { kind: string }[];
      expect(views.map((v) => v.kind)).toContain('chart');
      const chart = view(boardId, 'chart');
      const refused = await api(server.app, 'PUT', `/api/${w.teamId}/folder-views/${chart.id}`, { token: owner.token, body: chart });
      expect(refused.statusCode, refused.body).toBe(403);
    });

    it('allows Pro views to everyone with BILLING=off', async () => {
      const owner = await createUserWithToken(server.ctx);
      const w = await workspace(owner);
      server.ctx.config.billing = false;
      try {
        const v = view(w.b.id, 'chart');
        expect((await api(server.app, 'PUT', `/api/${w.teamId}/folder-views/${v.id}`, { token: owner.token, body: v })).statusCode).toBe(200);
        const subs = (await api(server.app, 'GET', '/api/subscription', { token: owner.token })).json().data as any[];
        expect(subs[0].limits).toMatchObject({ proViews: true, workspaces: 20 });
      } finally {
        server.ctx.config.billing = true;
      }
    });
  });

  describe('referral', () => {
    async function paid(teamId: number, invoiceId: string, userId: number, amount: number, currency = 'USD') {
      await server.ctx.db.transaction().execute(async (trx) => {
        await registerEventFloor(trx);
        await appendEvents(trx, [{ team_id: teamId, board_id: null, type: 'invoice.paid', collection: null, record_id: invoiceId, item_id: null, actor_id: null, before: null, after: { invoice_id: invoiceId, user_id: userId, subscription_id: null, amount, currency } }], server.ctx.now());
      });
      await server.ctx.jobs.drain();
    }

    it('gives a link, attributes a sign-up through it and credits 20 % of each paid invoice exactly once', async () => {
      const alice = await createUserWithToken(server.ctx);
      const w = await workspace(alice);
      const mine = (await api(server.app, 'GET', '/api/referral', { token: alice.token })).json().data;
      expect(mine).toMatchObject({ rate: 0.2, signups: 0, earnings: [], credits: [] });
      expect(mine.link).toBe(`${server.ctx.config.publicUrl.replace(/\/+$/, '')}/register?ref=${mine.code}`);
      // The same link from inside a workspace; only for its members.
      expect((await api(server.app, 'GET', `/api/${w.teamId}/referral`, { token: alice.token })).json()).toEqual({ data: { link: mine.link } });
      const stranger = await createUserWithToken(server.ctx);
      expect((await api(server.app, 'GET', `/api/${w.teamId}/referral`, { token: stranger.token })).statusCode).toBe(403);
      expect((await api(server.app, 'GET', '/api/referral')).statusCode).toBe(401);

      const email = `bob-${newId().slice(0, 6)}@example.test`.toLowerCase();
      const reg = await api(server.app, 'POST', '/api/auth/register', { body: { email, name: 'Bob', password: 'bob-password-1', referral: mine.code, grantType: 'password' } });
      expect(reg.statusCode, reg.body).toBe(201);
      const bob = await server.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      // A stale code does not stop a sign-up.
      expect((await api(server.app, 'POST', '/api/auth/register', { body: { email: `c-${email}`, name: 'C', password: 'c-password-12', referral: 'no-such-code' } })).statusCode).toBe(201);
      expect((await api(server.app, 'GET', '/api/referral', { token: alice.token })).json().data.signups).toBe(1);

      await paid(w.teamId, `inv-${bob.id}-1`, bob.id, 1000);
      await paid(w.teamId, `inv-${bob.id}-1`, bob.id, 1000); // delivered again: no second credit
      await paid(w.teamId, `inv-${bob.id}-2`, bob.id, 2999);
      await paid(w.teamId, `inv-${stranger.user.id}-1`, stranger.user.id, 5000); // not referred: nothing
      const after = (await api(server.app, 'GET', '/api/referral', { token: alice.token })).json().data;
      expect(after.credits.map((c: any) => [c.invoice_id, c.amount]).sort()).toEqual([[`inv-${bob.id}-1`, 200], [`inv-${bob.id}-2`, 600]]);
      // N12: held until the invoices are past their refund window (14 days), then earnings.
      expect(after.earnings).toEqual([]);
      expect(after.held).toEqual([{ currency: 'USD', amount: 800 }]);
      server.advance(15 * 24 * 3600 * 1000);
      const later = (await api(server.app, 'GET', '/api/referral', { token: alice.token })).json().data;
      expect(later.earnings).toEqual([{ currency: 'USD', amount: 800 }]);
      expect(later.held).toEqual([]);
    });

    it('N12: a second account of the referrer (same sign-up address, or the same card) earns no credit', async () => {
      const ip = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });
      const register = async (email: string, referral: string | undefined, headers: Record<string, string>) => {
        const reg = await api(server.app, 'POST', '/api/auth/register', { body: { email, name: 'Self', password: 'self-password-1', grantType: 'password', ...(referral ? { referral } : {}) }, headers });
        expect(reg.statusCode, reg.body).toBe(201);
        return { token: reg.json().access_token as string, id: (await server.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id };
      };
      const tag = newId().slice(0, 6).toLowerCase().replace(/[^a-z0-9]/g, 'x');
      const a = await register(`self-a-${tag}@example.test`, undefined, ip(10));
      const code = (await api(server.app, 'GET', '/api/referral', { token: a.token })).json().data.code;
      // The review's steps: a second account through A's own link, from the same address, buys a plan.
      const twin = await register(`self-b-${tag}@example.test`, code, ip(10));
      const w = await workspace({ token: twin.token, user: { id: twin.id } } as any);
      await paid(w.teamId, `inv-self-${twin.id}`, twin.id, 19200);
      // From another address but with the same card as A.
      const card = { number: '4242 4242 4242 4242', exp_month: 11, exp_year: 2098, cvc: '123' };
      expect((await api(server.app, 'POST', '/api/payment/methods', { token: a.token, body: { card } })).statusCode).toBe(201);
      const carded = await register(`self-c-${tag}@example.test`, code, ip(11));
      expect((await api(server.app, 'POST', '/api/payment/methods', { token: carded.token, body: { card } })).statusCode).toBe(201);
      await paid(w.teamId, `inv-self-${carded.id}`, carded.id, 19200);
      // A real friend from elsewhere with another card does earn A a credit.
      const friend = await register(`self-d-${tag}@example.test`, code, ip(12));
      await paid(w.teamId, `inv-self-${friend.id}`, friend.id, 1000);
      const view = (await api(server.app, 'GET', '/api/referral', { token: a.token })).json().data;
      expect(view.signups).toBe(3);
      expect(view.credits.map((c: any) => c.invoice_id)).toEqual([`inv-self-${friend.id}`]);
    });

    it('credits 20 % of a plan bought with a test card by someone who came through the link', async () => {
      const referrer = await createUserWithToken(server.ctx);
      const code = (await api(server.app, 'GET', '/api/referral', { token: referrer.token })).json().data.code;
      const email = `buyer-${newId().slice(0, 6)}@example.test`.toLowerCase();
      const reg = await api(server.app, 'POST', '/api/auth/register', { body: { email, name: 'Buyer', password: 'buyer-password-1', referral: code, grantType: 'password' } });
      expect(reg.statusCode, reg.body).toBe(201);
      const token = reg.json().access_token as string;
      const card = await api(server.app, 'POST', '/api/payment/methods', { token, body: { card: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2099, cvc: '123' } } });
      expect(card.statusCode, card.body).toBe(201);
      const bought = await api(server.app, 'POST', '/api/subscription', { token, body: { plan: 'pro', price: 'pro-month-usd', card_id: card.json().data.id } });
      expect(bought.statusCode, bought.body).toBe(200);
      const invoice = bought.json().invoice;
      await server.ctx.jobs.drain();
      const view = (await api(server.app, 'GET', '/api/referral', { token: referrer.token })).json().data;
      expect(view.credits).toEqual([expect.objectContaining({ invoice_id: String(invoice.id), invoice_amount: invoice.total, amount: Math.round(invoice.total * 0.2), currency: 'USD' })]);
      // Held while the invoice can still be refunded (N12).
      expect(view.held).toEqual([{ currency: 'USD', amount: Math.round(invoice.total * 0.2) }]);
    });

    it('lets the user choose a code or make a new one; a taken or malformed one is refused', async () => {
      const a = await createUserWithToken(server.ctx);
      const b = await createUserWithToken(server.ctx);
      const code = `team-${newId().slice(0, 6).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
      const set = await api(server.app, 'PUT', '/api/referral', { token: a.token, body: { code } });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().data.code).toBe(code);
      const taken = await api(server.app, 'PUT', '/api/referral', { token: b.token, body: { code } });
      expect(taken.statusCode).toBe(422);
      expect(taken.json().message).toBe(Messages.referralCodeTaken);
      expect((await api(server.app, 'PUT', '/api/referral', { token: b.token, body: { code: 'a b' } })).statusCode).toBe(422);
      const renewed = (await api(server.app, 'POST', '/api/referral', { token: a.token })).json().data;
      expect(renewed.code).not.toBe(code);
    });

    it('mails invitations with the link in the inviter’s language and refuses addresses it cannot read', async () => {
      const inviter = await createUserWithToken(server.ctx, { name: 'Ines' });
      await server.ctx.db.updateTable('users').set({ locale: 'de' }).where('id', '=', inviter.user.id).execute();
      const tag = newId().slice(0, 6).toLowerCase().replace(/[^a-z0-9]/g, 'x');
      const bad = await api(server.app, 'POST', '/api/referral/invite', { token: inviter.token, body: { emails: `ok-${tag}@example.test, not-an-address` } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().message).toContain(Messages.referralEmailsInvalid);
      expect((await server.outbox()).some((m) => m.to === `ok-${tag}@example.test`)).toBe(false);
      expect((await api(server.app, 'POST', '/api/referral/invite', { token: inviter.token, body: { emails: ' ' } })).statusCode).toBe(422);

      const res = await api(server.app, 'POST', '/api/referral/invite', { token: inviter.token, body: { emails: `one-${tag}@example.test, two-${tag}@example.test\nthree-${tag}@example.test  ${inviter.user.email}` } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.sent).toEqual([`one-${tag}@example.test`, `two-${tag}@example.test`, `three-${tag}@example.test`]);
      expect(res.json().data.skipped).toEqual([{ email: inviter.user.email.toLowerCase(), reason: 'own_address' }]);
      const link = (await api(server.app, 'GET', '/api/referral', { token: inviter.token })).json().data.link;
      const mail = (await server.outbox()).find((m) => m.to === `two-${tag}@example.test`)!;
      expect(mail.text).toContain(link);
      // German (decision 0155): not the English subject; the sender's name only in the body (N10).
      expect(mail.subject).not.toContain('Ines');
      expect(mail.subject).not.toBe('You are invited to Cairn');
      expect(mail.text).toContain('Ines');
      const view = (await api(server.app, 'GET', '/api/referral', { token: inviter.token })).json().data;
      expect(view.invitations.map((i: any) => i.email).sort()).toEqual([`one-${tag}@example.test`, `three-${tag}@example.test`, `two-${tag}@example.test`]);
    });

    it('N10: one referral mail per recipient a week, at most 100 mails a day per sender even in parallel, and no sender text in the subject', async () => {
      const sender = await createUserWithToken(server.ctx, { name: 'URGENT: your account is locked, verify at http://evil.test/login' });
      const tag = newId().slice(0, 6).toLowerCase().replace(/[^a-z0-9]/g, 'x');
      const target = `target-${tag}@example.test`;
      const invite = (emails: string) => api(server.app, 'POST', '/api/referral/invite', { token: sender.token, body: { emails } });
      // The review's steps: 30 invitations of one address → one mail.
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push(await invite(target));
      expect(answers.every((r) => r.statusCode === 200)).toBe(true);
      expect(answers.filter((r) => r.json().data.sent.length === 1)).toHaveLength(1);
      expect(answers[1]!.json().data.skipped).toEqual([{ email: target, reason: 'recently_invited' }]);
      const mails = (await server.outbox()).filter((m) => m.to === target);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('You are invited to Cairn');
      expect(mails[0]!.subject).not.toContain('URGENT');
      // Another sender cannot mail the same address again that week either.
      const other = await createUserWithToken(server.ctx);
      expect((await api(server.app, 'POST', '/api/referral/invite', { token: other.token, body: { emails: target } })).json().data.skipped).toEqual([{ email: target, reason: 'recently_invited' }]);
      // 8 parallel requests of 20 new addresses: at most the 99 mails left today, never 160.
      const batches = Array.from({ length: 8 }, (_, b) => Array.from({ length: 20 }, (_, i) => `p${b}-${i}-${tag}@example.test`).join(' '));
      const parallel = await Promise.all(batches.map((emails) => invite(emails)));
      const sent = parallel.filter((r) => r.statusCode === 200).flatMap((r) => r.json().data.sent as string[]);
      expect(sent).toHaveLength(99);
      expect(parallel.every((r) => r.statusCode === 200 || r.statusCode === 429)).toBe(true);
      const mailed = (await server.outbox()).filter((m) => m.to.endsWith(`-${tag}@example.test`) && m.to.startsWith('p'));
      expect(mailed).toHaveLength(99);
      expect((await invite(`late-${tag}@example.test`)).statusCode).toBe(429);
    });

    it('splits addresses on commas, spaces, semicolons and new lines, at most 20', () => {
      expect(parseEmails('a@x.test,b@x.test  c@x.test\nd@x.test;A@x.test')).toEqual(['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test']);
      expect(parseEmails(['a@x.test', 'b@x.test'])).toEqual(['a@x.test', 'b@x.test']);
      expect(() => parseEmails(Array.from({ length: 21 }, (_, i) => `p${i}@x.test`).join(' '))).toThrow(/at most 20/);
    });
  });
});
