// The browsable page of /api/docs: renders /api/docs/openapi.json with DOM nodes only (no HTML
// strings), so it runs under the app's Content-Security-Policy (no inline script, no eval).
'use strict';

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) if (child != null) node.append(child);
  return node;
}

/** Inline Markdown: `code`, **bold** and [links](url); everything else is text. */
function inline(text) {
  const parts = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)]+)\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    if (match[1] !== undefined) parts.push(el('code', null, match[1]));
    else if (match[2] !== undefined) parts.push(el('strong', null, match[2]));
    else parts.push(el('a', { href: match[4] }, match[3]));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Block Markdown: headings, paragraphs, lists and tables, which is all the guide uses. */
function markdown(source) {
  const out = [];
  const lines = source.split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) { out.push(el(`h${heading[1].length + 1}`, null, inline(heading[2]))); i += 1; continue; }
    if (line.startsWith('|')) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith('|')) { rows.push(lines[i]); i += 1; }
      const cells = (row) => row.replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
      const [head, , ...body] = rows;
      out.push(el('table', null, el('thead', null, el('tr', null, cells(head).map((c) => el('th', null, inline(c))))), el('tbody', null, body.map((row) => el('tr', null, cells(row).map((c) => el('td', null, inline(c))))))));
      continue;
    }
    const item = /^(\s*)(-|\d+\.)\s+(.*)$/.exec(line);
    if (item) {
      const ordered = item[2] !== '-';
      const list = el(ordered ? 'ol' : 'ul');
      while (i < lines.length) {
        const next = /^(\s*)(-|\d+\.)\s+(.*)$/.exec(lines[i]);
        if (next) { list.append(el('li', null, inline(next[3]))); i += 1; continue; }
        if (lines[i].startsWith('   ') && lines[i].trim() && list.lastChild) { list.lastChild.append(' ', ...inline(lines[i].trim())); i += 1; continue; }
        break;
      }
      out.push(list);
      continue;
    }
    const paragraph = [];
    while (i < lines.length && lines[i].trim() && !/^(#|\||\s*-\s|\s*\d+\.\s)/.test(lines[i])) { paragraph.push(lines[i].trim()); i += 1; }
    out.push(el('p', null, inline(paragraph.join(' '))));
  }
  return out;
}

function schemaBlock(schema) {
  return el('pre', null, JSON.stringify(schema, null, 2));
}

function operationView(method, path, op) {
  const params = op.parameters || [];
  const body = op.requestBody && op.requestBody.content;
  const details = el(
    'details',
    { class: 'op', 'data-search': `${method} ${path} ${op.summary} ${(op.tags || []).join(' ')}`.toLowerCase() },
    el('summary', null, el('span', { class: `method ${method}` }, method), el('span', { class: 'path' }, path), el('span', { class: 'summary' }, op.summary)),
    el(
      'div',
      null,
      markdown(op.description || ''),
      params.length ? [el('h4', null, 'Parameters'), el('table', null, el('thead', null, el('tr', null, el('th', null, 'name'), el('th', null, 'in'), el('th', null, 'required'), el('th', null, 'schema'))), el('tbody', null, params.map((p) => el('tr', null, el('td', null, el('code', null, p.name)), el('td', null, p.in), el('td', null, p.required ? 'yes' : 'no'), el('td', null, p.description || JSON.stringify(p.schema))))))] : null,
      body ? Object.entries(body).slice(0, 1).map(([type, media]) => [el('h4', null, `Body (${type})`), schemaBlock(media.schema)]) : null,
      el('h4', null, 'Answers'),
      el('ul', null, Object.entries(op.responses || {}).map(([status, response]) => el('li', null, el('code', null, status), ' ', response.description || '', response.content ? schemaBlock(response.content['application/json'].schema) : null))),
    ),
  );
  return details;
}

async function main() {
  const root = document.getElementById('docs');
  const response = await fetch('/api/docs/openapi.json');
  const doc = await response.json();
  root.replaceChildren();
  root.append(el('p', null, `Version ${doc.info.version}.`), ...markdown(doc.info.description || ''));
  const byTag = new Map();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = (op.tags && op.tags[0]) || 'Other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push(operationView(method, path, op));
    }
  }
  root.append(el('h2', null, 'Operations'));
  for (const tag of [...byTag.keys()].sort()) {
    root.append(el('section', { 'data-tag': tag }, el('h3', null, tag), byTag.get(tag)));
  }
  const filter = document.getElementById('filter');
  filter.addEventListener('input', () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const op of root.querySelectorAll('details.op')) op.classList.toggle('hidden', !words.every((w) => op.dataset.search.includes(w)));
    for (const section of root.querySelectorAll('section[data-tag]')) section.classList.toggle('hidden', !section.querySelector('details.op:not(.hidden)'));
  });
}

main().catch((error) => {
  document.getElementById('docs').replaceChildren(el('p', null, `The API document could not be loaded: ${error.message}`));
});
