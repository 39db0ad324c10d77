import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ATTACHMENT_MAX_BYTES } from '../../schema/attributes';
import type { PublicField, PublicForm } from '../../schema/public-form';
import type { AppContext } from '../context';
import type { DatabaseThrottle } from '../accounts/rate-limit';
import { ApiError } from '../http/errors';
import { contentSecurityPolicy } from '../http/security-headers';
import type { BotCheckWidget } from './bot-check-config';
import { escapeHtml as esc, htmlPage, sendPage, visitorOf, type Visitor } from '../http/html-page';
import { FormMessages } from './answers';
import type { LoadedForm } from './load';
import { publicFormOf } from './public-form';
import { acceptAnswers, FORM_MAX_FILES, multipartProblem, openForm, type FormBody } from './routes';

/**
 * /form/{formId} as the server's own HTML page (issue #13, decision 0210): a plain <form> that
 * posts multipart/form-data back to the same address, so it works without JavaScript and loads
 * none (the public form page's JavaScript budget is 50 KB; it uses 0). The answer goes through
 * the same path as POST /api/forms/{id} (acceptAnswers: throttle, bot check, attribute rules,
 * files, the item as the form's owner). A refusal answers the form again with the visitor's
 * answers kept, "The form has an error, fix it" on top and one problem under each question (the
 * first one autofocused); an accepted answer redirects (303) to ?sent=1, the confirmation page.
 *
 * Field names: `q:{attributeId}` (repeated for a multi-choice label; `:start`/`:end` for a date
 * range), files in `f:{attributeId}`, the bot-check widget's token in any field named `*-response`.
 *
 * With a bot-check widget configured (BOT_CHECK_SCRIPT_URL + BOT_CHECK_WIDGET_CLASS, decision 0211)
 * the form carries the provider's element and script, and this page alone lets that one origin in
 * its Content-Security-Policy (script, frame, connect); with JavaScript off it says the form needs it.
 */

type Answers = Record<string, unknown>;
type Closed = 'disabled' | 'unknown' | 'unavailable';

const closedOf = (error: unknown): Closed | null => {
  if (!(error instanceof ApiError)) return null;
  if (error.type === 'form_disabled') return 'disabled';
  if (error.type === 'form_unavailable') return 'unavailable';
  if (error.type === 'form_not_found') return 'unknown';
  return null;
};

/** A server message (schema/attributes.ts, answers.ts, limits) in the visitor's language; an unknown one as sent. */
export function problemText({ l10n }: Visitor, text: string): string {
  if (text.startsWith('Too many attempts.')) return l10n('Too many answers from your address. Please try again later.');
  if (text.startsWith('The file is too large.')) return l10n('A file is too large. Each file must be under {size} MB.', { size: ATTACHMENT_MAX_BYTES / (1024 * 1024) });
  if (text.startsWith('attach at most')) return l10n('Attach at most {count} files.', { count: FORM_MAX_FILES });
  switch (text) {
    case FormMessages.formHasError:
      return l10n('The form has an error, fix it');
    case FormMessages.required:
      return l10n('This question must be answered.');
    case FormMessages.notAsked:
      return l10n('This form does not ask for it.');
    case FormMessages.filesOnly:
      return l10n('Attach files here.');
    case 'enter a valid email address':
      return l10n('Enter a valid email address.');
    case 'provide a valid URL':
      return l10n('Provide a valid URL.');
    case 'a link must start with http:, https: or mailto:':
      return l10n('A link must start with http:, https: or mailto:');
    case 'enter a number':
      return l10n('Enter a number.');
    case 'enter a valid date':
      return l10n('Enter a valid date.');
    case "An item's end date must not be before its start date.":
      return l10n('The end date must not be before the start date.');
    case 'choose one of the options':
      return l10n('Choose one of the options.');
    case 'A label cannot be chosen with multiple selections.':
      return l10n('Choose only one option.');
    case 'The bot check did not pass. Please try again.':
      return l10n('The bot check did not pass. Please try again.');
    default:
      return text;
  }
}

function closedPage(visitor: Visitor, reason: Closed): string {
  const { l10n } = visitor;
  const [title, text] =
    reason === 'disabled'
      ? [l10n('This form is not accepting answers'), l10n('Its owner has turned it off. Ask them whether it will open again.')]
      : reason === 'unavailable'
        ? [l10n('This form is not available'), l10n('The form cannot take answers at the moment. Ask its owner.')]
        : [l10n('This form does not exist'), l10n('Check the link: it may be mistyped, or the form was deleted.')];
  return htmlPage(visitor, title, `<main><section class="card" data-testid="public-form-closed" data-reason="${reason}"><h1>${esc(title)}</h1><p>${esc(text)}</p></section></main>`);
}

interface Shown {
  answers: Answers;
  problems: Record<string, string>;
  error: string | null;
  /** Questions whose files came with a refused answer: a browser never refills a file input. */
  filesSent?: ReadonlySet<string>;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

function question(visitor: Visitor, field: PublicField, index: number, shown: Shown, focus: boolean): string {
  const { l10n } = visitor;
  const id = `q${index}`;
  const name = `q:${field.attribute_id}`;
  const value = shown.answers[field.attribute_id];
  const problem = shown.problems[field.attribute_id] ? problemText(visitor, shown.problems[field.attribute_id]!) : null;
  const helpId = field.help ? `${id}-help` : '';
  const problemId = problem ? `${id}-problem` : '';
  const describedBy = [helpId, problemId].filter(Boolean).join(' ');
  const common = `${describedBy ? ` aria-describedby="${describedBy}"` : ''}${problem ? ' aria-invalid="true"' : ''}${field.required ? ' aria-required="true"' : ''}${focus ? ' autofocus' : ''}`;
  const star = field.required ? '<span aria-hidden="true"> *</span>' : '';
  const notes = `${field.help ? `<small id="${helpId}" class="help">${esc(field.help)}</small>` : ''}${problem ? `<small id="${problemId}" class="problem">${esc(problem)}</small>` : ''}`;
  const wrap = (inner: string, tag = 'div') => `<${tag} class="question${problem ? ' has-problem' : ''}" data-question="${esc(field.attribute_id)}"${tag === 'fieldset' && describedBy ? ` aria-describedby="${describedBy}"` : ''}>${inner}${notes}</${tag}>`;
  const label = `<label for="${id}">${esc(field.label)}${star}${field.required ? `<span class="visually-hidden"> ${esc(l10n('(required)'))}</span>` : ''}</label>`;
  const input = (type: string, extra = '') => `<input id="${id}" name="${esc(name)}" type="${type}" value="${esc(textOf(value))}"${extra}${common}>`;
  switch (field.kind) {
    case 'long-text':
      return wrap(`${label}<textarea id="${id}" name="${esc(name)}" rows="4"${common}>${esc(textOf(value))}</textarea>`);
    case 'number':
      return wrap(label + input('text', ' inputmode="decimal"'));
    case 'email':
      return wrap(label + input('email', ' autocomplete="email"'));
    case 'link':
      return wrap(label + input('url', ' inputmode="url"'));
    case 'date':
      return wrap(label + input(field.with_time ? 'datetime-local' : 'date'));
    case 'date-range': {
      const range = (value ?? {}) as { start?: unknown; end?: unknown };
      const type = field.with_time ? 'datetime-local' : 'date';
      return wrap(
        `<legend>${esc(field.label)}${star}</legend><span class="range"><input id="${id}" name="${esc(name)}:start" type="${type}" aria-label="${esc(l10n('Start'))}" value="${esc(textOf(range.start))}"${common}><input name="${esc(name)}:end" type="${type}" aria-label="${esc(l10n('End'))}" value="${esc(textOf(range.end))}"${describedBy ? ` aria-describedby="${describedBy}"` : ''}></span>`,
        'fieldset',
      );
    }
    case 'checkbox':
      return wrap(`<label class="check"><input id="${id}" name="${esc(name)}" type="checkbox" value="1"${value === true ? ' checked' : ''}${common}><span>${esc(field.label)}${star}</span></label>`);
    case 'status':
    case 'label': {
      const options = field.options ?? [];
      if (field.kind === 'label' && field.multiple) {
        const chosen = Array.isArray(value) ? (value as unknown[]) : [];
        const boxes = options.map((o, i) => `<label class="check"><input name="${esc(name)}" type="checkbox" value="${esc(o.id)}"${chosen.includes(o.id) ? ' checked' : ''}${i === 0 && focus ? ' autofocus' : ''}>${esc(o.name)}</label>`).join('');
        return wrap(`<legend>${esc(field.label)}${star}</legend>${boxes}`, 'fieldset');
      }
      const list = [`<option value="">${esc(l10n('Choose…'))}</option>`, ...options.map((o) => `<option value="${esc(o.id)}"${value === o.id ? ' selected' : ''}>${esc(o.name)}</option>`)].join('');
      return wrap(`${label}<select id="${id}" name="${esc(name)}"${common}>${list}</select>`);
    }
    case 'attachments': {
      const again = !problem && shown.filesSent?.has(field.attribute_id) ? `<small class="problem">${esc(l10n('Choose the files again: they were not kept.'))}</small>` : '';
      return wrap(`${label}<input id="${id}" name="f:${esc(field.attribute_id)}" type="file" multiple${common}>${again}`);
    }
    default:
      return wrap(label + input('text'));
  }
}

function formPage(visitor: Visitor, form: PublicForm, shown: Shown, action: string, widget: BotCheckWidget | null): string {
  const { l10n } = visitor;
  const firstProblem = form.fields.findIndex((f) => shown.problems[f.attribute_id]);
  const error = shown.error
    ? `<p class="error" role="alert" data-testid="public-form-error"${firstProblem < 0 ? ' tabindex="-1" autofocus' : ''}>${esc(problemText(visitor, shown.error))}</p>`
    : '';
  const bot = !form.bot_check_sitekey
    ? ''
    : widget
      ? `<div class="bot-check" data-testid="public-form-bot-check"><div class="${esc(widget.className)}" data-sitekey="${esc(form.bot_check_sitekey)}"></div></div>`
      : `<div class="bot-check" data-sitekey="${esc(form.bot_check_sitekey)}" data-testid="public-form-bot-check"></div>`;
  // Said before the questions, so nobody fills the form in only to be refused.
  const needsJs = form.bot_check_sitekey && widget ? `<noscript><p class="error" data-testid="public-form-needs-js">${esc(l10n('This form needs JavaScript for its bot check. Turn JavaScript on, then load the page again.'))}</p></noscript>` : '';
  const script = form.bot_check_sitekey && widget ? `\n<script src="${esc(widget.scriptUrl)}" async defer></script>` : '';
  const body = `<main data-testid="public-form"><form class="card" method="post" action="${esc(action)}" enctype="multipart/form-data" novalidate aria-labelledby="public-form-title">
<h1 id="public-form-title">${esc(form.title)}</h1>
${form.description ? `<p class="description">${esc(form.description)}</p>` : ''}
<p class="note">${esc(l10n('Questions marked * must be answered.'))}</p>
${needsJs}${error}
${form.fields.map((f, i) => question(visitor, f, i, shown, i === firstProblem)).join('\n')}
${bot}
<button type="submit" data-testid="public-form-submit">${esc(l10n('Send'))}</button>
</form></main>${script}`;
  return htmlPage(visitor, form.title, body);
}

function sentPage(visitor: Visitor, form: LoadedForm, title: string, again: string): string {
  const { l10n } = visitor;
  const text = form.settings.confirmation || l10n('Thank you! Your answer was sent.');
  return htmlPage(
    visitor,
    title,
    `<main><section class="card" data-testid="public-form-sent" role="status"><h1>${esc(title)}</h1><p class="confirmation">${esc(text)}</p><a class="button" href="${esc(again)}">${esc(l10n('Send another answer'))}</a></section></main>`,
  );
}

/** Reads the page's multipart post into the API's shape (answers by attribute id, files, bot token). */
async function readPagePost(request: FastifyRequest, form: LoadedForm): Promise<FormBody> {
  const out: FormBody = { answers: {}, botToken: null, files: [] };
  if (!request.isMultipart()) throw new ApiError(400, 'The answers could not be read.', 'bad_request');
  const kinds = new Map(form.settings.fields.map((f) => [f.attribute_id, form.attributes.get(f.attribute_id)]));
  const fieldLimit = form.settings.fields.length * 2 + 20;
  try {
    for await (const part of request.parts({ limits: { fileSize: ATTACHMENT_MAX_BYTES, files: FORM_MAX_FILES + form.settings.fields.length, fields: fieldLimit, parts: fieldLimit + FORM_MAX_FILES + form.settings.fields.length, fieldSize: 256 * 1024 } })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        // An empty file input is sent as a nameless empty part.
        if (data.length === 0 && !part.filename) continue;
        if (out.files.length >= FORM_MAX_FILES) throw Object.assign(new Error('too many files'), { code: 'FST_FILES_LIMIT' });
        out.files.push({ field: part.fieldname.replace(/^f:/, ''), data, name: part.filename, mime: part.mimetype });
        continue;
      }
      const text = String(part.value ?? '');
      if (part.fieldname.endsWith('-response')) {
        if (text) out.botToken = text;
        continue;
      }
      const match = /^q:(.+?)(?::(start|end))?$/.exec(part.fieldname);
      if (!match) continue;
      const [, attributeId, end] = match as unknown as [string, string, 'start' | 'end' | undefined];
      const attribute = kinds.get(attributeId);
      if (end) {
        const range = (out.answers[attributeId] ?? {}) as Record<string, string>;
        out.answers[attributeId] = { ...range, [end]: text };
      } else if (attribute?.kind === 'checkbox') {
        out.answers[attributeId] = true;
      } else if (attribute?.kind === 'label' && (attribute.settings as { multiple?: unknown } | undefined)?.multiple === true) {
        out.answers[attributeId] = [...((out.answers[attributeId] as string[] | undefined) ?? []), text];
      } else if (text !== '') {
        out.answers[attributeId] = text;
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw multipartProblem(error) ?? new ApiError(400, 'The answers could not be read.', 'bad_request');
  }
  // A date range left empty is no answer; half of one is a problem the rules name.
  for (const [key, value] of Object.entries(out.answers)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const range = value as { start?: string; end?: string };
      if (!range.start && !range.end) delete out.answers[key];
      else out.answers[key] = { start: range.start ?? '', end: range.end ?? '' };
    }
  }
  return out;
}

/**
 * The form page with the bot-check widget: the server's policy (decision 0092) plus the provider's
 * origin for its script, the challenge frame and the script's own requests; nothing inline.
 */
export function widgetPolicy(config: AppContext['config'], widget: BotCheckWidget): string {
  const directives = contentSecurityPolicy(config);
  const add = (name: string) => (directives[name] = [...(directives[name] ?? ["'self'"]), widget.origin]);
  add('script-src');
  add('frame-src');
  add('connect-src');
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join(';');
}

/** Sends the form page; with the widget shown, under the policy that lets its origin in. */
const sendFormPage = (reply: FastifyReply, ctx: AppContext, status: number, visitor: Visitor, form: PublicForm, shown: Shown, action: string) => {
  const widget = form.bot_check_sitekey ? (ctx.config.botCheck?.widget ?? null) : null;
  if (widget) reply.header('content-security-policy', widgetPolicy(ctx.config, widget));
  return sendPage(reply, status, formPage(visitor, form, shown, action, widget));
};

export function formPageRoutes(app: FastifyInstance, ctx: AppContext, throttle: DatabaseThrottle): void {
  type Req = { Params: { formId: string }; Querystring: { sent?: string; lang?: string } };
  const self = (formId: string, visitor: Visitor, request: FastifyRequest<Req>, extra = '') => {
    const lang = request.query.lang ? `lang=${encodeURIComponent(visitor.locale)}` : '';
    const query = [lang, extra].filter(Boolean).join('&');
    return `/form/${encodeURIComponent(formId)}${query ? `?${query}` : ''}`;
  };

  app.get<Req>('/form/:formId', async (request, reply) => {
    const visitor = visitorOf(request);
    let form: LoadedForm;
    try {
      form = await openForm(ctx, request.params.formId);
    } catch (error) {
      const closed = closedOf(error);
      if (!closed) throw error;
      return sendPage(reply, 404, closedPage(visitor, closed));
    }
    const shownForm = publicFormOf(form, ctx.config.botCheck?.sitekey ?? null);
    if (request.query.sent === '1') return sendPage(reply, 200, sentPage(visitor, form, shownForm.title, self(form.id, visitor, request)));
    return sendFormPage(reply, ctx, 200, visitor, shownForm, { answers: {}, problems: {}, error: null }, self(form.id, visitor, request));
  });

  app.post<Req>('/form/:formId', async (request, reply: FastifyReply) => {
    const visitor = visitorOf(request);
    let form: LoadedForm;
    try {
      form = await openForm(ctx, request.params.formId);
    } catch (error) {
      const closed = closedOf(error);
      if (!closed) throw error;
      return sendPage(reply, 404, closedPage(visitor, closed));
    }
    let read: FormBody | null = null;
    try {
      await acceptAnswers(ctx, throttle, form, reply, request.ip, async () => (read = await readPagePost(request, form)));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const closed = closedOf(error);
      if (closed) return sendPage(reply, 404, closedPage(visitor, closed));
      const problems = ((error.data as { fields?: Record<string, string> } | undefined)?.fields ?? {}) as Record<string, string>;
      const answers = (read as FormBody | null)?.answers ?? {};
      const shownForm = publicFormOf(form, ctx.config.botCheck?.sitekey ?? null);
      const filesSent = new Set(((read as FormBody | null)?.files ?? []).map((f) => f.field));
      return sendFormPage(reply, ctx, error.status, visitor, shownForm, { answers, problems, error: error.message, filesSent }, self(form.id, visitor, request));
    }
    return reply.status(303).header('location', self(form.id, visitor, request, 'sent=1')).header('cache-control', 'no-store').send();
  });
}
