/**
 * The browser-mode access token. The host prints `http://127.0.0.1:PORT/?token=…`; we take
 * the token from the query, keep it in sessionStorage (so a reload of the cleaned URL still
 * connects) and strip it from the address bar so it is not left in screenshots or history.
 */
const KEY = 'thicket.token';

export function takeAccessToken(): string {
  const params = new URLSearchParams(window.location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    try {
      sessionStorage.setItem(KEY, fromUrl);
    } catch {
      /* storage disabled: the token still works for this page load */
    }
    params.delete('token');
    const query = params.toString();
    const clean = window.location.pathname + (query ? `?${query}` : '') + window.location.hash;
    window.history.replaceState(window.history.state, '', clean);
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function apiSocketUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/api?token=${encodeURIComponent(token)}`;
}
