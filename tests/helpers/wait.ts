/** Polls `check` every `everyMs` until it holds, or rejects after `timeoutMs` naming `what`. */
export function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition', everyMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = async () => {
      if (await check()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, everyMs);
    };
    void tick();
  });
}
