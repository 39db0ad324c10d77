// Writes translations into the Lingui catalogs, so several people can add strings side by side.
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
const ENTRY = /^((?:#.*\n)*)msgid "(.*)"\nmsgstr "(.*)"$/gm;

function extract() {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/@lingui/cli/dist/lingui.js'), 'extract', '--clean'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function fill(file) {
  const table = JSON.parse(fs.readFileSync(file, 'utf8'));
  let written = 0;
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    const p = catalogPath(locale);
    const text = fs.readFileSync(p, 'utf8');
    const next = text.replace(ENTRY, (whole, comments, id, str) => {
      const wanted = table[unescape(id)]?.[locale];
      if (wanted === undefined) return whole;
      written += 1;
      return `${comments}msgid "${id}"\nmsgstr "${escape(wanted)}"`;
    });
    fs.writeFileSync(p, next);
  }
  const known = new Set();
  for (const m of fs.readFileSync(catalogPath('en'), 'utf8').matchAll(ENTRY)) known.add(unescape(m[2]));
  const notInSource = Object.keys(table).filter((id) => !known.has(id));
  console.log(`${written} translations written`);
  if (notInSource.length) console.log(`not in the catalogs (run extract first?):\n  ${notInSource.join('\n  ')}`);
}

function missing(prefix) {
  const out = {};
  const source = [...fs.readFileSync(catalogPath('en'), 'utf8').matchAll(ENTRY)].filter((m) => m[2] && (!prefix || m[1].includes(`#: ${prefix}`)));
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    const have = new Map([...fs.readFileSync(catalogPath(locale), 'utf8').matchAll(ENTRY)].map((m) => [m[2], m[3]]));
    for (const m of source) if (!have.get(m[2])) (out[unescape(m[2])] ??= []).push(locale);
  }
  const ids = Object.keys(out);
  for (const id of ids) console.log(`${JSON.stringify(id)}: ${out[id].join(' ')}`);
  console.log(`${ids.length} messages lack a translation`);
}

const [cmd, arg] = process.argv.slice(2);
if (cmd === 'extract') withLock(extract);
else if (cmd === 'fill' && arg) withLock(() => fill(path.resolve(arg)));
else if (cmd === 'missing') missing(arg);
else {
  console.error('usage: node scripts/i18n-fill.mjs extract | fill <file.json> | missing [path-prefix]');
  process.exit(2);
}
