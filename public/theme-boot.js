/*
 * Cairn: the remembered theme on <html> before the first paint (issue #17 part 4). A classic,
 * blocking script in <head> (the CSP allows same-origin scripts, not inline ones); the app applies
 * the same choice again when it starts (src/preferences.ts) and follows the OS for "system".
 * Keys: localStorage "cairn.themeMode" = 0 light, 1 dark, 2 system (src/storage/local-store.ts).
 */
(function () {
  var mode = 2;
  try {
    var raw = window.localStorage.getItem('cairn.themeMode');
    if (raw !== null) mode = JSON.parse(raw);
  } catch (e) {
    /* storage refused: follow the system */
  }
  var dark = mode === 1 || (mode !== 0 && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
})();
