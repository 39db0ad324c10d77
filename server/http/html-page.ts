import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOCALES, RTL_LANGUAGES, type Locale } from '../../schema/constants';
import { translator, type Translate } from '../i18n/catalogs';

/**
 * The server's own HTML pages for people without an account (decision 0210): public forms
 * (/form/{id}) and published documents (/p/…). Plain HTML that works without JavaScript, in the
 * visitor's language (`?lang=`, else the browser's Accept-Language, else English; Arabic right to
 * left), with one small stylesheet from our origin (/public-page.css): no inline script or style,
 * so the CSP stays 'self' (decision 0092).
 */

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const supported = (tag: string): Locale | null => {
  const language = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (LOCALES as readonly string[]).includes(language) ? (language as Locale) : null;
};

/** `?lang=de`, else the first supported language of Accept-Language by its q weight, else en. */
export function visitorLocale(request: FastifyRequest): Locale {
  const query = (request.query ?? {}) as { lang?: unknown };
  if (typeof query.lang === 'string') {
    const asked = supported(query.lang);
    if (asked) return asked;
  }
  const header = request.headers['accept-language'];
  if (typeof header === 'string') {
    const ranked = header
      .split(',')
      .slice(0, 20)
      .map((part, index) => {
        const [tag = '', ...params] = part.split(';');
        const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
        return { tag, q: q === undefined ? 1 : Number(q), index };
      })
      .filter((r) => r.q > 0)
      .sort((a, b) => b.q - a.q || a.index - b.index);
    for (const r of ranked) {
      const found = supported(r.tag);
      if (found) return found;
    }
  }
  return 'en';
}

export interface Visitor {
  locale: Locale;
  l10n: Translate;
}

export const visitorOf = (request: FastifyRequest): Visitor => {
  const locale = visitorLocale(request);
  return { locale, l10n: translator(locale) };
};

export function htmlPage(visitor: Visitor, title: string, body: string, bodyClass = ''): string {
  const dir = (RTL_LANGUAGES as readonly string[]).includes(visitor.locale) ? 'rtl' : 'ltr';
  return `<!doctype html>
<html lang="${visitor.locale}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${PAGE_CSS_PATH}">
</head>
<body${bodyClass ? ` class="${bodyClass}"` : ''}>
${body}
</body>
</html>
`;
}

/** Sends a page; never cached (a form turned off or a document unpublished must stop at once). */
export const sendPage = (reply: FastifyReply, status: number, html: string) =>
  reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language').send(html);

export const PAGE_CSS_PATH = '/public-page.css';

/** Logical properties only, so the same rules mirror in right-to-left pages; system colours follow the visitor's light or dark scheme. */
const PAGE_CSS = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
body { margin: 0; background: Canvas; color: CanvasText; }
main { max-inline-size: 720px; margin-inline: auto; padding: 24px 16px; }
.card { display: flex; flex-direction: column; gap: 16px; border: 1px solid GrayText; border-radius: 8px; padding: 24px; }
h1 { margin: 0; font-size: 1.5rem; overflow-wrap: anywhere; }
.note, .help { color: #4b5563; }
.description, .confirmation { white-space: pre-wrap; margin: 0; overflow-wrap: anywhere; }
.question { display: flex; flex-direction: column; gap: 6px; border: 0; padding: 0; margin: 0; }
.question > label, .question legend { font-weight: 600; }
.question input:not([type=checkbox]), .question textarea, .question select { inline-size: 100%; box-sizing: border-box; font: inherit; padding: 6px 8px; }
.range { display: flex; gap: 8px; }
.check { display: flex; align-items: center; gap: 8px; font-weight: normal; }
.problem, .error { color: #c0262d; }
.error { font-weight: 600; margin: 0; }
.question.has-problem input, .question.has-problem textarea, .question.has-problem select { border-color: #c0262d; }
.visually-hidden { position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
button, .button { align-self: flex-start; font: inherit; padding: 8px 16px; border-radius: 6px; border: 1px solid ButtonBorder; background: ButtonFace; color: ButtonText; text-decoration: none; cursor: pointer; }
button[type=submit] { background: #2563eb; color: #fff; border-color: #2563eb; }
.docs { display: flex; gap: 24px; max-inline-size: 1080px; }
.docs > nav { flex: 0 0 220px; }
.docs > nav ul { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 4px; }
.docs > nav a[aria-current] { font-weight: 600; }
.docs > article, main > article { flex: 1; min-inline-size: 0; }
article pre { overflow-x: auto; padding: 12px; border: 1px solid GrayText; border-radius: 6px; }
.task-list { list-style: none; padding-inline-start: 0; }
.task-item { display: flex; gap: 8px; align-items: baseline; }
@media (prefers-color-scheme: dark) { .note, .help { color: #b6bdc8; } .problem, .error { color: #ff9b9b; } .question.has-problem input, .question.has-problem textarea, .question.has-problem select { border-color: #ff9b9b; } }
@media (max-width: 720px) { .docs { flex-direction: column; } .docs > nav { flex: none; } }
`;

export function pageStylesRoute(app: FastifyInstance): void {
  app.get(PAGE_CSS_PATH, async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(PAGE_CSS));
}
