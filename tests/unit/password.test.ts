import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword, DEFAULT_SCRYPT } from '../../server/accounts/password';

describe('password hashing (scrypt)', () => {
  it('stores the parameters and salt with the hash and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    const [scheme, N, r, p, salt, key] = stored.split('$');
    expect(scheme).toBe('scrypt');
    expect([Number(N), Number(r), Number(p)]).toEqual([DEFAULT_SCRYPT.N, DEFAULT_SCRYPT.r, DEFAULT_SCRYPT.p]);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64url')).toHaveLength(64);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(stored).not.toContain('correct');
  });

  it('salts every hash differently', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });

  it('verifies hashes made with other parameters and flags them for rehashing', async () => {
    const weak = await hashPassword('old password', { N: 1024, r: 8, p: 1 });
    expect(await verifyPassword('old password', weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword('new password'))).toBe(false);
  });

  it('treats a malformed stored value as a mismatch', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$0$8$1$aa$bb')).toBe(false);
  });
});

// The rate limiter moved into the database (decision 0093); tests/server/throttles.test.ts covers it.
