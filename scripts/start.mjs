// The one start command (README): installs packages if needed, builds the web app, and starts the
// server on the embedded database with demo data. Honours PORT, HOST, DATA_DIR (and DATABASE_URL).
// The server prints the URL and, where it seeds demo data (no DATABASE_URL, NODE_ENV not
// production; docs/operations.md "Demo data"), the demo login. A refused setting (a published
// realtime secret) ends it with a message and a non-zero exit code, which is passed on.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root, run, ensureNodeModules } from './setup-lib.mjs';

ensureNodeModules();
if (process.env.SKIP_BUILD !== '1') run('npx vite build --logLevel warn');
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], { cwd: root, stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
