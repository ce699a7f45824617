// Applies the stored (or system) colour scheme before React mounts, so pages do not flash.
// Mirrors Mantine's localStorageColorSchemeManager key and its 'auto' resolution.
(function () {
  try {
    var stored = window.localStorage.getItem('mantine-color-scheme-value');
    var scheme = stored === 'light' || stored === 'dark' ? stored : 'auto';
    if (scheme === 'auto') scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  } catch {
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  }
})();
