import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { outboundRule } from '../outbound';
import { z } from 'zod';
import { ATTACHMENT_MAX_BYTES, type Attachment } from '../../schema/attributes';
import { Messages } from '../../schema/messages';
import { RECORD_ID_PATTERN } from '../../schema/records';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { DatabaseThrottle, type LimitRule, type Slot } from '../accounts/rate-limit';
import { tooManyAttempts } from '../accounts/limits';
import { saveUpload, sniffImage } from '../files/storage';
import { checkAnswers, FormMessages } from './answers';
import { botCheckPasses } from './bot-check';
import { loadForm, type LoadedForm } from './load';
import { publicFormOf } from './public-form';
import { formUnavailable, writeSubmission } from './submit';
import { formPageRoutes } from './page';
import { readOnlyReason } from '../billing/read-only';

/**
 * Public forms (docs/api/forms.md, decision 0130): anyone, signed in or not, reads an enabled
 * form and sends answers to it; each accepted answer becomes an item written as the form's owner.
 *   GET  /api/forms/{formId}   the form as a visitor sees it
 *   POST /api/forms/{formId}   answers: JSON {answers, bot_token?} or multipart (field "answers"
 *                              as JSON, "bot_token", files in fields named by their attribute id)
 * Throttled per client address (decision 0093's database counters): every attempt counts in a
 * loose window, accepted answers in a tight one (a refused answer gives its slot back).
 */

type FormParams = { Params: { formId: string } };

const tag = 'Forms';
const answersBody = z.object({
  answers: z.record(z.string(), z.unknown()).describe('Answers by attribute id (the primary attribute: the item’s name). Attachments come as files (multipart), never here.'),
  bot_token: z.string().optional().describe('The bot-check widget’s token, when the server names a sitekey.'),
});
const readDocs = { tag, auth: 'none' as const, summary: 'Read a public form', description: 'An enabled Form view as a visitor sees it: title, description and its questions (kind, label, help, required, options). 404 `form_not_found`, `form_disabled` or `form_unavailable` otherwise.' };
const sendDocs = {
  tag,
  auth: 'none' as const,
  status: 201,
  body: answersBody,
  summary: 'Answer a public form',
  description: 'Creates an item (and its values and attachments) as the form’s owner. JSON, or multipart/form-data with `answers` (JSON text), `bot_token` and files in fields named by their attribute id. 422 "The form has an error, fix it" with `data.fields` per question; 429 when the address sent too many.',
};

const MINUTE = 60_000;
export const FORM_LIMITS = {
  /** Every POST to any form from one address. */
  attemptsPerIp: { max: 60, windowMs: 10 * MINUTE },
  /** Accepted answers from one address. */
  submissionsPerIp: { max: 10, windowMs: 10 * MINUTE },
} satisfies Record<string, LimitRule>;
/** Files in one answer (each at most ATTACHMENT_MAX_BYTES). */
export const FORM_MAX_FILES = 5;

export interface FormBody {
  answers: Record<string, unknown>;
  botToken: string | null;
  files: { field: string; data: Buffer; name: string; mime: string }[];
}

const disabled = () => new ApiError(404, 'This form is not accepting answers right now.', 'form_disabled');
const unknownForm = () => new ApiError(404, 'This form does not exist.', 'form_not_found');

export async function openForm(ctx: AppContext, formId: string): Promise<LoadedForm> {
  if (!RECORD_ID_PATTERN.test(formId)) throw unknownForm();
  const found = await loadForm(ctx, formId);
  switch (found.state) {
    case 'open':
      return found.form;
    case 'disabled':
      throw disabled();
    case 'unavailable':
      throw formUnavailable();
    default:
      throw unknownForm();
  }
}

export function formsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const throttle = new DatabaseThrottle(ctx.db, () => ctx.now());

  app.get<FormParams>('/api/forms/:formId', { config: { docs: readDocs } }, async (request) => {
    const form = await openForm(ctx, request.params.formId);
    return { data: publicFormOf(form, ctx.config.botCheck?.sitekey ?? null) };
  });

  app.post<FormParams>('/api/forms/:formId', { config: { docs: sendDocs } }, async (request, reply) => {
    const form = await openForm(ctx, request.params.formId);
    await acceptAnswers(ctx, throttle, form, reply, request.ip, () => readBody(request));
    return reply.status(201).send({ data: { confirmation: form.settings.confirmation } });
  });
  // The form as its own HTML page, with or without JavaScript (decision 0210).
  formPageRoutes(app, ctx, throttle);
}

/**
 * One answer, from the API or the HTML page: the address's slots, the bot check, the attribute
 * rules, the files, the item. Throws the ApiError a refusal is (422 with `data.fields`, 429, 413).
 */
export async function acceptAnswers(ctx: AppContext, throttle: DatabaseThrottle, form: LoadedForm, reply: FastifyReply, ip: string, read: () => Promise<FormBody>): Promise<void> {
  // An answer makes an item: a read-only workspace (ended subscription, decision 0360) takes none.
  if (await readOnlyReason(ctx, ctx.db, form.team.id, ctx.now())) throw formUnavailable();
  const slots = await takeSlots(throttle, reply, ip);
  const submission = slots[1]!;
  try {
    const body = await read();
    if (ctx.config.botCheck && !(await botCheckPasses(ctx.config.botCheck, body.botToken, ip, outboundRule(ctx.config, 'botCheck')))) {
      throw new ApiError(422, 'The bot check did not pass. Please try again.', 'bot_check');
    }
    const attachmentFields = new Set(form.settings.fields.filter((f) => form.attributes.get(f.attribute_id)?.kind === 'attachments').map((f) => f.attribute_id));
    const checked = checkAnswers(form.settings.fields, form.attributes, body.answers, new Set(body.files.map((f) => f.field)));
    for (const file of body.files) if (!attachmentFields.has(file.field)) checked.problems[file.field.slice(0, 64)] = FormMessages.notAsked;
    if (Object.keys(checked.problems).length > 0) throw new ApiError(422, FormMessages.formHasError, 'validation', { fields: checked.problems });
    const files = await storeFiles(ctx, form, body.files);
    await writeSubmission(ctx, form, { values: checked.values, files });
  } catch (error) {
    // Nothing was written: the answer does not count against the address's accepted ones.
    await throttle.giveBack(submission);
    throw error;
  }
}

/** Both counters, or a 429 (and then neither counts). */
async function takeSlots(throttle: DatabaseThrottle, reply: FastifyReply, ip: string): Promise<Slot[]> {
  const taken: Slot[] = [];
  for (const [name, rule] of Object.entries(FORM_LIMITS)) {
    const slot = await throttle.take(`form:${name}:${ip}`, rule);
    if (!slot.allowed) {
      await Promise.all(taken.map((s) => throttle.giveBack(s)));
      tooManyAttempts(reply, slot.retryAfterMs);
    }
    taken.push(slot);
  }
  return taken;
}

function answersOf(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError(422, FormMessages.formHasError, 'validation', { fields: {}, problems: ['answers: must be an object of answers by attribute id'] });
  // A plain copy: keys such as __proto__ stay ordinary keys (and are refused as not asked).
  return Object.fromEntries(Object.entries(value as Record<string, unknown>));
}

/** The multipart limits a form's own error messages name (the page reads its parts itself). */
export const multipartProblem = (error: unknown): ApiError | null => {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ApiError(413, Messages.fileTooLarge(ATTACHMENT_MAX_BYTES / (1024 * 1024)), 'too_large');
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new ApiError(422, FormMessages.formHasError, 'validation', { fields: {}, problems: [`attach at most ${FORM_MAX_FILES} files`] });
  }
  return null;
};

async function readBody(request: FastifyRequest): Promise<FormBody> {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as { answers?: unknown; bot_token?: unknown };
    if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'Send the answers as a JSON object.', 'bad_request');
    return { answers: answersOf(body.answers), botToken: typeof body.bot_token === 'string' ? body.bot_token : null, files: [] };
  }
  const out: FormBody = { answers: {}, botToken: null, files: [] };
  try {
    for await (const part of request.parts({ limits: { fileSize: ATTACHMENT_MAX_BYTES, files: FORM_MAX_FILES, fields: 10, parts: FORM_MAX_FILES + 10, fieldSize: 1024 * 1024 } })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (data.length > 0) out.files.push({ field: part.fieldname, data, name: part.filename, mime: part.mimetype });
      } else if (part.fieldname === 'answers') {
        out.answers = answersOf(JSON.parse(String(part.value)));
      } else if (part.fieldname === 'bot_token') {
        out.botToken = String(part.value);
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw multipartProblem(error) ?? new ApiError(400, 'The answers could not be read.', 'bad_request');
  }
  return out;
}

const cleanName = (name: string) => (name.replace(/^.*[\\/]/, '').replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'file').slice(0, 255);

/** Stores the files as attachments of the workspace (its storage limit applies: 413 when full). */
async function storeFiles(ctx: AppContext, form: LoadedForm, files: FormBody['files']): Promise<Map<string, Attachment[]>> {
  const out = new Map<string, Attachment[]>();
  for (const file of files) {
    const image = sniffImage(file.data);
    const url = await saveUpload(ctx, 'attachments', file.data, image ?? 'bin', { teamId: form.team.id });
    const id = url.slice(url.lastIndexOf('/') + 1).replace(/\.[a-z]+$/, '');
    const entry: Attachment = { id, name: cleanName(file.name), size: file.data.length, mime: image ? file.mime : 'application/octet-stream', url };
    out.set(file.field, [...(out.get(file.field) ?? []), entry]);
  }
  return out;
}

