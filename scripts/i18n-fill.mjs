// Writes translations into the Lingui catalogs, so several people can add strings side by side.
// Two catalogs per locale: messages.po (the app, from Lingui's extract over src/) and server.po
// (the server's mail and push texts: every `l10n('…')` literal under server/, decision 0155).
//
//   node scripts/i18n-fill.mjs extract            # lingui extract under a lock (adds new msgids)
//   node scripts/i18n-fill.mjs fill file.json     # sets msgstr from {"msgid": {"sr": "...", ...}}
//   node scripts/i18n-fill.mjs missing [prefix]   # lists msgids some locale lacks (source paths
//                                                 # starting with prefix only, when given)
//
// Every command takes the same file lock, so two runs never write a catalog at once and one run's
// extract never writes back a catalog read before another run filled it.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCALES = ['en', 'sr', 'es', 'it', 'de', 'fr', 'pl', 'ar', 'tr', 'zh', 'ko'];
const lockDir = path.join(root, '.cache', 'i18n.lock');

function withLock(fn) {
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch {
      // A lock older than five minutes belongs to a run that died.
      try {
        if (Date.now() - fs.statSync(lockDir).mtimeMs > 300_000) fs.rmSync(lockDir, { recursive: true, force: true });
      } catch {}
      if (Date.now() - started > 600_000) throw new Error('i18n lock held for 10 minutes');
      execFileSync('sleep', ['0.3']);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

const unescape = (s) => s.replace(/\\(["\\n])/g, (_, c) => (c === 'n' ? '\n' : c));
const escape = (s) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const catalogPath = (locale) => path.join(root, 'locales', locale, 'messages.po');
const serverCatalogPath = (locale) => path.join(root, 'locales', locale, 'server.po');
const catalogFiles = (locale) => [catalogPath(locale), serverCatalogPath(locale)].filter((p) => fs.existsSync(p));
const ENTRY = /^((?:#.*\n)*)msgid "(.*)"\nmsgstr "(.*)"$/gm;

function extract() {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/@lingui/cli/dist/lingui.js'), 'extract', '--clean'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  extractServer();
}

/** Every .ts file under a folder (no node_modules). */
function tsFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(p));
    else if (entry.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/**
 * The server catalog: msgids are the first arguments of `l10n('…')` calls (single-quoted literals)
 * under server/. The English catalog gets msgstr = msgid; the others keep what they had for each
 * msgid and get an empty msgstr for new ones; msgids no longer in the source are dropped.
 */
function extractServer() {
  const found = new Map();
  const call = /\bl10n\(\s*'((?:[^'\\]|\\.)*)'/g;
  for (const file of tsFiles(path.join(root, 'server')).sort()) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    for (const m of fs.readFileSync(file, 'utf8').matchAll(call)) {
      const id = m[1].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
      if (!found.has(id)) found.set(id, new Set());
      found.get(id).add(rel);
    }
  }
  for (const locale of LOCALES) {
    const file = serverCatalogPath(locale);
    const old = new Map();
    if (fs.existsSync(file)) for (const m of fs.readFileSync(file, 'utf8').matchAll(ENTRY)) old.set(unescape(m[2]), unescape(m[3]));
    const header = `msgid ""\nmsgstr ""\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n"Language: ${locale}\\n"\n`;
    const entries = [...found].map(([id, files]) => {
      const str = locale === 'en' ? id : old.get(id) ?? '';
      return `${[...files].map((f) => `#: ${f}`).join('\n')}\nmsgid "${escape(id)}"\nmsgstr "${escape(str)}"`;
    });
    fs.writeFileSync(file, `${header}\n${entries.join('\n\n')}\n`);
  }
  console.log(`server catalog: ${found.size} messages`);
}

function fill(file) {
  const table = JSON.parse(fs.readFileSync(file, 'utf8'));
  let written = 0;
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    for (const p of catalogFiles(locale)) {
      const text = fs.readFileSync(p, 'utf8');
      const next = text.replace(ENTRY, (whole, comments, id, str) => {
        const wanted = table[unescape(id)]?.[locale];
        if (wanted === undefined) return whole;
        written += 1;
        return `${comments}msgid "${id}"\nmsgstr "${escape(wanted)}"`;
      });
      fs.writeFileSync(p, next);
    }
  }
  const known = new Set();
  for (const p of catalogFiles('en')) for (const m of fs.readFileSync(p, 'utf8').matchAll(ENTRY)) known.add(unescape(m[2]));
  const notInSource = Object.keys(table).filter((id) => !known.has(id));
  console.log(`${written} translations written`);
  if (notInSource.length) console.log(`not in the catalogs (run extract first?):\n  ${notInSource.join('\n  ')}`);
}

function missing(prefix) {
  const out = {};
  for (const en of catalogFiles('en')) {
    const source = [...fs.readFileSync(en, 'utf8').matchAll(ENTRY)].filter((m) => m[2] && (!prefix || m[1].includes(`#: ${prefix}`)));
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const p = path.join(path.dirname(path.dirname(en)), locale, path.basename(en));
      const have = fs.existsSync(p) ? new Map([...fs.readFileSync(p, 'utf8').matchAll(ENTRY)].map((m) => [m[2], m[3]])) : new Map();
      for (const m of source) if (!have.get(m[2])) (out[unescape(m[2])] ??= []).push(locale);
    }
  }
  const ids = Object.keys(out);
  for (const id of ids) console.log(`${JSON.stringify(id)}: ${out[id].join(' ')}`);
  console.log(`${ids.length} messages lack a translation`);
}

const [cmd, arg] = process.argv.slice(2);
if (cmd === 'extract') withLock(extract);
else if (cmd === 'fill' && arg) withLock(() => fill(path.resolve(arg)));
else if (cmd === 'missing') missing(arg);
else if (cmd === 'extract-server') withLock(extractServer);
else {
  console.error('usage: node scripts/i18n-fill.mjs extract | extract-server | fill <file.json> | missing [path-prefix]');
  process.exit(2);
}
