import type { BrowserWindowConstructorOptions } from 'electron';

/** The main window: the renderer is the same web app, isolated from Node entirely. */
export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1400,
    height: 900,
    minWidth: 800,
    minHeight: 560,
    title: 'Weft',
    show: false,
    backgroundColor: '#f7f6f2',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  };
}

/** Navigation stays on the local server's origin; anything else is refused. */
export function isAllowedNavigation(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

/** Links that leave the app open in the OS browser — only ordinary web and mail links. */
export function isExternalLink(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:' || protocol === 'mailto:';
  } catch {
    return false;
  }
}

/** What to do with a window.open / target=_blank request. */
export function windowOpenDecision(url: string, origin: string): 'deny' | 'open-external' {
  if (isAllowedNavigation(url, origin)) return 'deny';
  return isExternalLink(url) ? 'open-external' : 'deny';
}
