import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { ConfigError } from '../../server/secrets';

/**
 * Security review N7 (issue #26 part 7): the default payment provider (`local`) takes the published
 * test card, so with NODE_ENV=production and billing on the server refuses to start unless
 * PAYMENT_PROVIDER is set explicitly. (The checkout's "test payment provider" notice is in the
 * browser test e2e/billing-checkout.test.ts.)
 */

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-n7-'));

describe('N7: the payment provider in production', () => {
  it('is required with NODE_ENV=production and billing on; explicit local, stripe, billing off or a non-production start pass', () => {
    const dataDir = tempDir();
    const base = { DATA_DIR: dataDir, PUSHER_APP_SECRET: 'a-strong-realtime-secret-0123456789' };
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(/PAYMENT_PROVIDER must be set with NODE_ENV=production/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', PAYMENT_PROVIDER: '  ' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', BILLING: 'on' })).toThrow(/PAYMENT_PROVIDER/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', PAYMENT_PROVIDER: 'local' })).not.toThrow();
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', PAYMENT_PROVIDER: 'stripe' })).not.toThrow();
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', BILLING: 'off' })).not.toThrow();
    expect(() => loadConfig({ ...base, NODE_ENV: 'test' })).not.toThrow();
    expect(() => loadConfig({ ...base })).not.toThrow();
  });

  it('makes the server refuse to start, with the reason and a non-zero exit, before touching the database', async () => {
    const dataDir = tempDir();
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: path.resolve('.'),
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', NODE_ENV: 'production', DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
      child.on('exit', (exitCode) => {
        clearTimeout(timer);
        resolve({ code: exitCode, output: text });
      });
    });
    expect(code).not.toBe(0);
    expect(output).toContain('Cairn cannot start: PAYMENT_PROVIDER must be set');
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false);
  }, 120_000);
});
