import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { requireUserId } from '../auth/guard';
import { ApiError, notFound, parseBody, unauthorized, validation } from '../http/errors';
import { Messages } from '../../schema/messages';
import { ATTACHMENT_MAX_BYTES } from '../../schema/attributes';
import type { FolderRecord } from '../../schema/records';
import { allowed, chainTo, loadTeam, roleIn } from '../sync/access';
import { boardRecords, findRecord } from '../sync/store';
import { teamIdParam } from '../sync/params';
import { saveUpload, sniffImage } from './storage';

/**
 * POST /api/{teamId}/attachments?item_id= (multipart, field "file"): stores one file for an
 * attachments value and answers the entry the client then saves into the value
 * (`{id, name, size, mime, url}`, schema/attributes.ts). Uploading is editing the item, so it
 * needs EDIT_ITEM on the item's folder, as saving the value will. The bytes count against the
 * workspace's storage figure (413 storage_full over its limit). A file stays while any record,
 * live or in the trash, points at it; once nothing has for the grace period the sweep removes it
 * (server/files/sweep.ts), so an undo or a queued save can still claim it meanwhile.
 */

const tooLarge = () => new ApiError(413, Messages.fileTooLarge(ATTACHMENT_MAX_BYTES / (1024 * 1024)), 'too_large');
const query = z.object({ item_id: z.string().min(1).max(64) });

/** The uploader may edit the item (EDIT_ITEM on its folder, owner-scoped to the item's creator). */
async function requireItemEdit(ctx: AppContext, teamId: number, userId: number, itemId: string): Promise<void> {
  const team = await loadTeam(ctx.db, teamId);
  if (!team) throw notFound();
  const role = await roleIn(ctx, team, userId);
  const item = await findRecord(ctx.db, 'item', itemId);
  if (!item || item.team_id !== teamId || item.deleted_at) throw validation([`item_id: there is no item ${itemId} in this workspace`]);
  const folders = new Map((await boardRecords(ctx.db, teamId, item.board_id, 'folder')).map((r) => [r.id, r.data as unknown as FolderRecord]));
  const chain = chainTo(team, folders, String(item.data.folder_id ?? item.board_id));
  if (!chain) throw notFound();
  if (!allowed({ id: userId, role }, 'EDIT_ITEM', chain, item.created_by)) throw unauthorized();
}

/** The one file of the request, within the limit. */
async function readFile(request: FastifyRequest): Promise<{ data: Buffer; name: string; mime: string }> {
  if (!request.isMultipart()) throw new ApiError(415, 'Send the file as multipart/form-data in the field "file".', 'bad_request');
  let file: { data: Buffer; name: string; mime: string } | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1 } })) {
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      if (part.fieldname === 'file' && !file) file = { data, name: part.filename, mime: part.mimetype };
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw validation(['file: send one file at a time']);
    // Anything else the multipart reader throws (a truncated body: "Unexpected end of multipart
    // data", a broken part header) is the client's malformed upload too, not a server fault.
    throw new ApiError(400, 'The upload could not be read.', 'bad_request');
  }
  if (!file || file.data.length === 0) throw validation(['file: choose a file that is not empty']);
  if (file.data.length > ATTACHMENT_MAX_BYTES) throw tooLarge();
  return file;
}

/** A file name fit to show and to offer as the download name. */
function cleanName(name: string): string {
  const base = name.replace(/^.*[\\/]/, '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (base || 'file').slice(0, 255);
}

export function attachmentRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Params: { teamId: string }; Querystring: Record<string, string> }>('/api/:teamId/attachments', async (request) => {
    const teamId = teamIdParam(request.params.teamId);
    const userId = await requireUserId(ctx.db, request);
    const { item_id } = parseBody(query, request.query);
    await requireItemEdit(ctx, teamId, userId, item_id);
    const file = await readFile(request);
    // Images are served as images (to open in a tab); anything else only as a download.
    const image = sniffImage(file.data);
    const url = await saveUpload(ctx, 'attachments', file.data, image ?? 'bin', { teamId });
    const id = url.slice(url.lastIndexOf('/') + 1).replace(/\.[a-z]+$/, '');
    const name = cleanName(file.name);
    return { data: { id, name, size: file.data.length, mime: image ? file.mime : 'application/octet-stream', url } };
  });
}
