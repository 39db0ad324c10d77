import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplateDetail } from '../../schema/templates';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { createUserWithToken } from '../helpers/users';
import { addMember, createTeam, type SignedIn } from './sync-fixtures';

/**
 * Built-in templates in the user's language (issue #16) against the real server (PGlite, and
 * PostgreSQL with TEST_DATABASE_URL): a German user (users.locale "de-DE") gets the bug tracker's
 * preview and the board made from it in German, an English user in English.
 */

describe('built-in templates in the user’s language', () => {
  let server: TestServer;
  let teamId: number;
  let anna: SignedIn; // locale de-DE
  let ed: SignedIn; // locale en-US (the default)

  async function boardRecords(boardId: string) {
    const rows = await server.ctx.db.selectFrom('records').select(['collection', 'data']).where('board_id', '=', boardId).where('deleted_at', 'is', null).execute();
    const of = (collection: string) => rows.filter((r) => r.collection === collection).map((r) => r.data as Record<string, any>);
    return { attributes: of('attribute'), views: of('folder_view'), items: of('item'), values: of('value') };
  }

  beforeAll(async () => {
    server = await createTestServer();
    anna = await createUserWithToken(server.ctx, { name: 'Anna' });
    ed = await createUserWithToken(server.ctx, { name: 'Ed' });
    await server.ctx.db.updateTable('users').set({ locale: 'de-DE' }).where('id', '=', anna.user.id).execute();
    teamId = await createTeam(server.ctx, ed.user.id);
    await addMember(server.ctx, teamId, anna.user.id, 'full-member');
  });
  afterAll(() => server?.close());

  it('shows the preview in the reader’s language', async () => {
    const de = (await api(server.app, 'GET', '/api/templates/bug-tracker', { token: anna.token })).json().data as TemplateDetail;
    expect(de.content.attributes.map((a) => a.name)).toContain('Schweregrad');
    expect(de.content.views.map((v) => v.name)).toContain('Nach Schweregrad');
    expect(de.content.items.map((i) => i.name)).toContain('Export lässt die letzte Zeile weg');
    const en = (await api(server.app, 'GET', '/api/templates/bug-tracker', { token: ed.token })).json().data as TemplateDetail;
    expect(en.content.attributes.map((a) => a.name)).toContain('Severity');
    expect(en.content.views.map((v) => v.name)).toContain('By severity');
  });

  it('makes the board in German for a German user and in English for an English user', async () => {
    const made = await api(server.app, 'POST', `/api/${teamId}/templates/bug-tracker/use`, { token: anna.token, body: { name: 'Unsere Bugs' } });
    expect(made.statusCode, made.body).toBe(201);
    const de = await boardRecords(made.json().data.board_id as string);
    const severity = de.attributes.find((a) => a.name === 'Schweregrad');
    expect(severity, JSON.stringify(de.attributes.map((a) => a.name))).toBeDefined();
    expect((severity!.settings.options as { name: string }[]).map((o) => o.name)).toEqual(['Niedrig', 'Mittel', 'Hoch', 'Kritisch']);
    const status = de.attributes.find((a) => a.name === 'Status')!;
    expect((status.settings.options as { name: string }[]).map((o) => o.name)).toEqual(['Neu', 'Sichtung', 'In Behebung', 'Behoben', 'Wird nicht behoben']);
    expect(de.attributes.map((a) => a.name)).toEqual(expect.arrayContaining(['Schritte zum Reproduzieren', 'Gemeldet', 'Zuständig']));
    expect(de.views.map((v) => v.name).sort()).toEqual(['Alle Bugs', 'Nach Schweregrad', 'Nach Status', 'Schweregrad-Diagramm']);
    expect(de.items.map((i) => i.name)).toContain('Anmelde-Button reagiert nicht in Safari');
    const steps = de.attributes.find((a) => a.name === 'Schritte zum Reproduzieren')!;
    expect(de.values.find((v) => v.attribute_id === steps.id)?.value).toMatch(/^1\. Die Anmeldeseite in Safari öffnen\n/);
    // Option ids stay the file's: the values still point at them.
    expect(de.values.filter((v) => v.attribute_id === severity!.id).map((v) => v.value).sort()).toEqual(['critical', 'high', 'low', 'low', 'medium']);

    const madeEn = await api(server.app, 'POST', `/api/${teamId}/templates/bug-tracker/use`, { token: ed.token, body: { name: 'Our bugs' } });
    expect(madeEn.statusCode, madeEn.body).toBe(201);
    const en = await boardRecords(madeEn.json().data.board_id as string);
    const severityEn = en.attributes.find((a) => a.name === 'Severity');
    expect(severityEn).toBeDefined();
    expect((severityEn!.settings.options as { name: string }[]).map((o) => o.name)).toEqual(['Low', 'Medium', 'High', 'Critical']);
    expect(en.views.map((v) => v.name).sort()).toEqual(['All bugs', 'By severity', 'By status', 'Severity chart']);
    expect(en.attributes.some((a) => a.name === 'Schweregrad')).toBe(false);
  });
});
