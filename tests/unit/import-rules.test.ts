import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';

/**
 * Decision 0103: the folder rules of DESIGN.md §2 as .dependency-cruiser.cjs states them. A small
 * tree with one file per allowed and forbidden import is cruised with the real rule set: every
 * forbidden import must be reported under its rule, and nothing allowed may be.
 */
const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs');

const files: Record<string, string> = {
  'schema/ok.ts': `import { z } from 'zod';\nimport { other } from './other';\nexport const ok = z.string().or(z.literal(other));\n`,
  'schema/other.ts': `export const other = 'x';\n`,
  'schema/bad.ts': `import { engine } from '../sync-worker/engine';\nexport const bad = engine;\n`,
  'sync-worker/engine.ts': `import { other } from '../schema/other';\nexport const engine = other;\n`,
  'sync-worker/client.ts': `export { engine } from './engine';\n`,
  'sync-worker/bad-react.ts': `import { useState } from 'react';\nexport const hook = useState;\n`,
  'sync-worker/bad-src.ts': `import { screen } from '../src/ok';\nexport const x = screen;\n`,
  'src/ok.ts': `import { engine } from '../sync-worker/client';\nimport { other } from '../schema/other';\nexport const screen = [engine, other];\n`,
  'src/bad-engine.ts': `import type { engine } from '../sync-worker/engine';\nexport type E = typeof engine;\n`,
  'src/bad-server.ts': `import { route } from '../server/ok';\nexport const y = route;\n`,
  'server/ok.ts': `import { other } from '../schema/other';\nexport const route = other;\n`,
  'server/bad.ts': `import { engine } from '../sync-worker/client';\nimport { screen } from '../src/ok';\nexport const z = [engine, screen];\n`,
};

let dir: string;
let result: ICruiseResult;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  // The packages the tree names resolve from the project's node_modules.
  fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  const { tsConfig: _tsConfig, ...options } = config.options;
  const answer = await cruise(['schema', 'sync-worker', 'src', 'server'], { ...options, baseDir: dir, ruleSet: { forbidden: config.forbidden }, validate: true });
  result = answer.output as ICruiseResult;
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('import rules (DESIGN.md §2)', () => {
  it('reports each forbidden import under its rule, and nothing else', () => {
    // Packages are named by the folder under node_modules (the tree links to the project's).
    const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*node_modules\/([^/]+)\/.*$/, '$1')}`).sort();
    expect(found).toEqual(
      [
        'schema-imports-nothing-of-ours: schema/bad.ts → sync-worker/engine.ts',
        'server-not-src-or-sync-worker: server/bad.ts → src/ok.ts',
        'server-not-src-or-sync-worker: server/bad.ts → sync-worker/client.ts',
        'src-not-server: src/bad-server.ts → server/ok.ts',
        'src-uses-the-worker-client-api-only: src/bad-engine.ts → sync-worker/engine.ts',
        'sync-worker-no-react-no-src: sync-worker/bad-react.ts → react',
        'sync-worker-no-react-no-src: sync-worker/bad-src.ts → src/ok.ts',
      ].sort(),
    );
  });
});
