import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchNginxConf } from '../../bench/herd-harness';

/**
 * The herd bench (bench/scale-out.ts, decision 0285) puts nginx with the reference deployment's
 * config in front of the API servers, only the addresses replaced. These check that the rewrite
 * still fits deploy/nginx.conf (a changed config fails here, not in the middle of a bench run) and
 * that nginx accepts the result where nginx is installed.
 */
const reference = fs.readFileSync(path.resolve(__dirname, '../../deploy/nginx.conf'), 'utf8');
const hasNginx = (() => {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('the herd bench runs deploy/nginx.conf', () => {
  it('replaces every address and keeps the rest of the reference config', () => {
    const conf = benchNginxConf(reference, { port: 18080, apiPorts: [18081, 18082, 18083], hubPort: 18090, dir: '/tmp/x' });
    expect(conf).not.toMatch(/api-\d+:8080|hub:8080|listen 8080/);
    expect(conf.match(/server 127\.0\.0\.1:1808[123] max_fails=1 fail_timeout=5s;/g)).toHaveLength(3);
    expect(conf).toContain('server 127.0.0.1:18090;');
    expect(conf).toContain('listen 127.0.0.1:18080 default_server;');
    // What the deployment relies on is still there: keep-alive upstream connections, retries of
    // idempotent requests on another server, /metrics refused from outside.
    for (const line of ['keepalive 32;', 'proxy_next_upstream error timeout http_502 http_503;', 'location = /metrics { return 404; }', 'proxy_set_header Connection "";']) expect(conf).toContain(line);
    expect(conf).toContain('proxy_temp_path /tmp/x/proxy;');
  });

  it('refuses a config whose shape it does not know', () => {
    expect(() => benchNginxConf(reference.replace(/api-(\d+):8080/g, 'backend-$1:9000'), { port: 1, apiPorts: [2], hubPort: 3, dir: '/tmp/x' })).toThrow(/no longer has the shape/);
  });

  it.skipIf(!hasNginx)('is accepted by nginx -t', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-nginx-test-'));
    try {
      const file = path.join(dir, 'nginx.conf');
      fs.writeFileSync(file, benchNginxConf(reference, { port: 18080, apiPorts: [18081, 18082], hubPort: 18090, dir }));
      const run = spawnSync('nginx', ['-t', '-p', dir, '-c', file, '-e', path.join(dir, 'error.log'), '-g', `pid ${dir}/nginx.pid;`], { encoding: 'utf8' });
      expect(run.stderr).toContain('test is successful');
      expect(run.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
