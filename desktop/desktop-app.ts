import type {
  BrowserWindow as ElectronBrowserWindow,
  BrowserWindowConstructorOptions,
  MenuItemConstructorOptions,
  OpenDialogOptions,
  OpenDialogReturnValue,
} from 'electron';
import { startServer, type RunningServer } from '../server/index.ts';
import { deepLinkFromArgv, parseDeepLink, DEEP_LINK_SCHEME, type DeepLink } from './deep-link.ts';
import { pickFolder } from './folder-picker.ts';
import { IPC } from './ipc-channels.ts';
import { menuTemplate } from './menu-template.ts';
import { safeStorageCipher, type SafeStorageLike } from './safe-storage-cipher.ts';
import { claimSingleInstance, type InstanceApp } from './single-instance.ts';
import { isAllowedNavigation, windowOpenDecision, windowOptions } from './window-options.ts';

type Window = Pick<ElectronBrowserWindow, 'loadURL' | 'show' | 'focus' | 'isMinimized' | 'restore' | 'once'> & {
  webContents: Pick<ElectronBrowserWindow['webContents'], 'send' | 'on' | 'setWindowOpenHandler'>;
};

/** The slice of the `electron` module the shell uses; injected so the logic runs under plain Node in tests. */
export interface ElectronModule {
  app: InstanceApp & {
    whenReady(): Promise<unknown>;
    setAsDefaultProtocolClient(scheme: string): boolean;
    on(event: string, listener: (...args: never[]) => void): unknown;
    getName(): string;
    isPackaged: boolean;
  };
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => Window;
  Menu: { buildFromTemplate(template: MenuItemConstructorOptions[]): unknown; setApplicationMenu(menu: unknown): void };
  shell: { openExternal(url: string): Promise<void> };
  dialog: { showOpenDialog(options: OpenDialogOptions): Promise<OpenDialogReturnValue> };
  ipcMain: {
    handle(
      channel: string,
      listener: (event: { senderFrame?: { url: string } | null }, ...args: unknown[]) => unknown,
    ): void;
  };
  safeStorage: SafeStorageLike;
}

export interface DesktopOptions {
  home: string;
  staticDir: string;
  preloadPath: string;
  argv: readonly string[];
  platform: NodeJS.Platform;
}

export interface RunningDesktop {
  server: RunningServer;
  window: Window;
  openLink(link: DeepLink): void;
}

/**
 * The Electron shell (C27), thin: the same local server in-process on a free loopback port with its
 * token, one locked-down window on it, native menus, a folder picker, keys sealed by safeStorage,
 * and `weft://` links. Returns null in a second instance (it hands its link to the first and quits).
 */
export async function startDesktop(electron: ElectronModule, options: DesktopOptions): Promise<RunningDesktop | null> {
  const { app } = electron;
  let window: Window | null = null;
  let pendingLink: DeepLink | null = deepLinkFromArgv(options.argv);
  let loaded = false;

  const openLink = (link: DeepLink) => {
    if (!window || !loaded) {
      pendingLink = link;
      return;
    }
    if (window.isMinimized()) window.restore();
    window.focus();
    window.webContents.send(IPC.command, 'open-link', link);
  };

  const primary = claimSingleInstance(app, (argv) => {
    const link = deepLinkFromArgv(argv);
    if (link) openLink(link);
    else if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
  if (!primary) return null;
  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  app.on('open-url', (event: { preventDefault(): void }, url: string) => {
    event.preventDefault();
    const link = parseDeepLink(url);
    if (link) openLink(link);
  });

  await app.whenReady();
  const cipher = safeStorageCipher(electron.safeStorage);
  const server = await startServer({
    port: 0,
    home: options.home,
    staticDir: options.staticDir,
    secretsCipher: cipher ?? undefined,
  });
  app.on('window-all-closed', () => app.quit());
  // Electron does not wait for promises: hold the quit until close() has flushed pending folder backups.
  let closed = false;
  let closing = false;
  app.on('will-quit', (event: { preventDefault(): void }) => {
    if (closed) return;
    event.preventDefault();
    if (closing) return;
    closing = true;
    void server.close().finally(() => {
      closed = true;
      app.quit();
    });
  });

  electron.ipcMain.handle(IPC.pickFolder, (event) => {
    // Only our own page may open native dialogs.
    if (!event.senderFrame || !isAllowedNavigation(event.senderFrame.url, server.origin)) return null;
    return pickFolder((dialogOptions) => electron.dialog.showOpenDialog(dialogOptions));
  });

  const created = new electron.BrowserWindow(windowOptions(options.preloadPath));
  window = created;
  const send = (commandId: string) => created.webContents.send(IPC.command, commandId);
  electron.Menu.setApplicationMenu(
    electron.Menu.buildFromTemplate(
      menuTemplate({ platform: options.platform, appName: app.getName(), send, developer: !app.isPackaged }),
    ),
  );

  created.webContents.on('will-navigate', (event: { preventDefault(): void }, url: string) => {
    if (isAllowedNavigation(url, server.origin)) return;
    event.preventDefault();
    if (windowOpenDecision(url, server.origin) === 'open-external') void electron.shell.openExternal(url);
  });
  created.webContents.setWindowOpenHandler(({ url }) => {
    if (windowOpenDecision(url, server.origin) === 'open-external') void electron.shell.openExternal(url);
    return { action: 'deny' };
  });
  created.webContents.on('will-attach-webview', (event: { preventDefault(): void }) => event.preventDefault());
  created.webContents.on('did-finish-load', () => {
    loaded = true;
    if (pendingLink) {
      const link = pendingLink;
      pendingLink = null;
      openLink(link);
    }
  });
  created.once('ready-to-show', () => created.show());
  // The token travels once in this URL; the server turns it into an HttpOnly cookie and redirects.
  await created.loadURL(server.url);
  return { server, window: created, openLink };
}
