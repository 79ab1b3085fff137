import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deepLinkFromArgv, parseDeepLink } from './deep-link.ts';
import { startDesktop, type ElectronModule, type RunningDesktop } from './desktop-app.ts';
import { MENU_COMMANDS, menuTemplate } from './menu-template.ts';
import { safeStorageCipher } from './safe-storage-cipher.ts';
import { claimSingleInstance } from './single-instance.ts';
import { isAllowedNavigation, windowOpenDecision, windowOptions } from './window-options.ts';
import { sampleCanvas } from '../tests/support/sample-canvas.ts';

describe('window options and navigation', () => {
  it('isolates the renderer from Node', () => {
    const options = windowOptions('/app/preload.cjs');
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
    });
  });

  it('keeps navigation on the server origin and sends web links to the OS browser', () => {
    const origin = 'http://127.0.0.1:4555';
    expect(isAllowedNavigation('http://127.0.0.1:4555/canvas/a', origin)).toBe(true);
    expect(isAllowedNavigation('http://localhost:4555/', origin)).toBe(false);
    expect(isAllowedNavigation('http://127.0.0.1:9999/', origin)).toBe(false);
    expect(isAllowedNavigation('https://example.com/', origin)).toBe(false);
    expect(windowOpenDecision('https://example.com/docs', origin)).toBe('open-external');
    expect(windowOpenDecision('file:///etc/passwd', origin)).toBe('deny');
    expect(windowOpenDecision('javascript:alert(1)', origin)).toBe('deny');
    expect(windowOpenDecision(`${origin}/popup`, origin)).toBe('deny');
  });
});

describe('menus', () => {
  const labels = (items: MenuItemConstructorOptions[]) => items.map((item) => item.label ?? item.role);

  it('has File, Edit and View menus that send command ids to the renderer', () => {
    const sent: string[] = [];
    const template = menuTemplate({
      platform: 'linux',
      appName: 'Weft',
      send: (id) => sent.push(id),
      developer: false,
    });
    expect(labels(template)).toEqual(['File', 'Edit', 'View']);
    const file = template[0]!.submenu as MenuItemConstructorOptions[];
    expect(labels(file)).toEqual(['New canvas', undefined, 'Import…', 'Export…', undefined, 'quit']);
    for (const item of file) (item.click as (() => void) | undefined)?.();
    expect(sent).toEqual([MENU_COMMANDS.newCanvas, MENU_COMMANDS.importCanvas, MENU_COMMANDS.exportCanvas]);
    const view = template[2]!.submenu as MenuItemConstructorOptions[];
    expect(view.some((item) => item.role === 'toggleDevTools')).toBe(false);
  });

  it('adds the app menu on macOS and developer tools in development', () => {
    const template = menuTemplate({ platform: 'darwin', appName: 'Weft', send: () => undefined, developer: true });
    expect(labels(template)).toEqual(['Weft', 'File', 'Edit', 'View']);
    expect((template[3]!.submenu as MenuItemConstructorOptions[]).some((item) => item.role === 'toggleDevTools')).toBe(
      true,
    );
  });
});

describe('weft:// links', () => {
  it('parses canvas, node and turn links and rejects anything else', () => {
    expect(parseDeepLink('weft://canvas/abc_1')).toEqual({ canvasId: 'abc_1', nodeId: null, turnKey: null });
    expect(parseDeepLink('weft://canvas/abc/node/n-2')).toEqual({ canvasId: 'abc', nodeId: 'n-2', turnKey: null });
    expect(parseDeepLink('weft://canvas/abc/turn/claude-code%3As1%3A4')).toEqual({
      canvasId: 'abc',
      nodeId: null,
      turnKey: 'claude-code:s1:4',
    });
    for (const bad of [
      'https://canvas/abc',
      'weft://canvas/../etc',
      'weft://canvas/',
      'weft://settings',
      'weft://canvas/a/extra',
      'weft://canvas/a/node/b/node/c',
      'not a url',
    ]) {
      expect(parseDeepLink(bad), bad).toBeNull();
    }
    expect(deepLinkFromArgv(['/opt/Weft/weft', '--flag', 'weft://canvas/x'])).toEqual({
      canvasId: 'x',
      nodeId: null,
      turnKey: null,
    });
    expect(deepLinkFromArgv(['/opt/Weft/weft'])).toBeNull();
  });
});

describe('single instance and key sealing', () => {
  it('quits a second instance and hands the first one its arguments', () => {
    const listeners: ((event: unknown, argv: string[], cwd: string) => void)[] = [];
    const first = {
      requestSingleInstanceLock: () => true,
      quit: vi.fn(),
      on: (_event: 'second-instance', listener: (typeof listeners)[number]) => listeners.push(listener),
    };
    const received: string[][] = [];
    expect(claimSingleInstance(first, (argv) => received.push(argv))).toBe(true);
    listeners[0]!({}, ['weft', 'weft://canvas/a'], '/');
    expect(received).toEqual([['weft', 'weft://canvas/a']]);
    const second = { requestSingleInstanceLock: () => false, quit: vi.fn(), on: vi.fn() };
    expect(claimSingleInstance(second, () => undefined)).toBe(false);
    expect(second.quit).toHaveBeenCalled();
  });

  it('seals keys with safeStorage only when encryption is available', () => {
    const available = {
      isEncryptionAvailable: () => true,
      encryptString: (text: string) => Buffer.from(`sealed:${text}`),
      decryptString: (buffer: Buffer) => buffer.toString().slice(7),
    };
    const cipher = safeStorageCipher(available)!;
    expect(cipher.open(cipher.seal('sk-key'))).toBe('sk-key');
    expect(cipher.seal('sk-key')).not.toContain('sk-key');
    expect(safeStorageCipher({ ...available, isEncryptionAvailable: () => false })).toBeNull();
  });
});

/** A stand-in for the electron module: records what the shell does, drives events like Electron would. */
function fakeElectron() {
  const appListeners = new Map<string, ((...args: never[]) => void)[]>();
  const contentsListeners = new Map<string, ((...args: never[]) => void)[]>();
  const handlers = new Map<string, (event: { senderFrame?: { url: string } | null }, ...args: unknown[]) => unknown>();
  const record = {
    windowOptions: null as BrowserWindowConstructorOptions | null,
    loadedUrl: '',
    sent: [] as unknown[][],
    opened: [] as string[],
    menu: null as MenuItemConstructorOptions[] | null,
    openHandler: null as ((details: { url: string }) => { action: string }) | null,
    protocol: '',
  };
  class FakeWindow {
    webContents = {
      send: (...args: unknown[]) => record.sent.push(args),
      on: (event: string, listener: (...args: never[]) => void) =>
        contentsListeners.set(event, [...(contentsListeners.get(event) ?? []), listener]),
      setWindowOpenHandler: (handler: typeof record.openHandler) => {
        record.openHandler = handler;
      },
    };
    constructor(options: BrowserWindowConstructorOptions) {
      record.windowOptions = options;
    }
    async loadURL(url: string) {
      // Follow the token link like a browser would: the server answers with a cookie and a redirect.
      const response = await fetch(url, { redirect: 'manual' });
      record.loadedUrl = `${url} -> ${response.status} ${response.headers.get('location')} ${response.headers.get('set-cookie')}`;
    }
    show() {}
    focus() {}
    isMinimized() {
      return false;
    }
    restore() {}
    once() {
      return this;
    }
  }
  const electron = {
    app: {
      requestSingleInstanceLock: () => true,
      quit: vi.fn(),
      whenReady: async () => undefined,
      setAsDefaultProtocolClient: (scheme: string) => {
        record.protocol = scheme;
        return true;
      },
      on: (event: string, listener: (...args: never[]) => void) =>
        appListeners.set(event, [...(appListeners.get(event) ?? []), listener]),
      getName: () => 'Weft',
      isPackaged: true,
    },
    BrowserWindow: FakeWindow,
    Menu: {
      buildFromTemplate: (template: MenuItemConstructorOptions[]) => template,
      setApplicationMenu: (menu: unknown) => (record.menu = menu as MenuItemConstructorOptions[]),
    },
    shell: { openExternal: async (url: string) => void record.opened.push(url) },
    dialog: { showOpenDialog: async () => ({ canceled: false, filePaths: ['/home/person/backups'] }) },
    ipcMain: {
      handle: (channel: string, listener: typeof handlers extends Map<string, infer L> ? L : never) =>
        handlers.set(channel, listener),
    },
    safeStorage: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
  };
  const emit = (map: typeof appListeners, event: string, ...args: unknown[]) => {
    for (const listener of map.get(event) ?? []) listener(...(args as never[]));
  };
  return {
    electron: electron as unknown as ElectronModule,
    record,
    handlers,
    emitApp: (event: string, ...args: unknown[]) => emit(appListeners, event, ...args),
    emitContents: (event: string, ...args: unknown[]) => emit(contentsListeners, event, ...args),
  };
}

describe('startDesktop', () => {
  let desktop: RunningDesktop | null = null;
  let home = '';
  afterEach(async () => {
    await desktop?.server.close();
    desktop = null;
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('starts the real server on a free loopback port and opens a locked-down window on it with the token', async () => {
    home = await mkdtemp(join(tmpdir(), 'weft-desktop-'));
    const fake = fakeElectron();
    desktop = await startDesktop(fake.electron, {
      home,
      staticDir: join(home, 'no-ui'),
      preloadPath: '/app/preload.cjs',
      argv: ['weft', 'weft://canvas/c1/node/n1'],
      platform: 'linux',
    });
    expect(desktop).not.toBeNull();
    const { server } = desktop!;
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).not.toBe(4317);
    expect(fake.record.loadedUrl).toContain(
      `${server.origin}/?token=${server.token} -> 302 / weft_token=${server.token}`,
    );
    expect(fake.record.windowOptions!.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(fake.record.protocol).toBe('weft');
    expect(fake.record.menu!.map((item) => item.label)).toEqual(['File', 'Edit', 'View']);

    // Menu clicks reach the renderer as command ids.
    ((fake.record.menu![0]!.submenu as MenuItemConstructorOptions[])[0]!.click as () => void)();
    expect(fake.record.sent).toContainEqual(['weft:command', 'new-canvas']);

    // The link from the command line is delivered once the page has loaded; later ones arrive via open-url.
    fake.emitContents('did-finish-load');
    expect(fake.record.sent).toContainEqual([
      'weft:command',
      'open-link',
      { canvasId: 'c1', nodeId: 'n1', turnKey: null },
    ]);
    fake.emitApp('open-url', { preventDefault: () => undefined }, 'weft://canvas/c2');
    expect(fake.record.sent).toContainEqual([
      'weft:command',
      'open-link',
      { canvasId: 'c2', nodeId: null, turnKey: null },
    ]);

    // Navigation away is refused; web links go to the OS browser.
    const prevented = vi.fn();
    fake.emitContents('will-navigate', { preventDefault: prevented }, 'https://example.com/page');
    expect(prevented).toHaveBeenCalled();
    expect(fake.record.opened).toEqual(['https://example.com/page']);
    expect(fake.record.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(fake.record.opened).toHaveLength(1);

    // The folder picker answers our own page only.
    const pick = fake.handlers.get('weft:pick-folder')!;
    expect(await pick({ senderFrame: { url: `${server.origin}/` } })).toBe('/home/person/backups');
    expect(await pick({ senderFrame: { url: 'https://evil.example/' } })).toBeNull();
  });

  it('holds the quit until the server has closed (pending backups written), then quits', async () => {
    home = await mkdtemp(join(tmpdir(), 'weft-desktop-'));
    const fake = fakeElectron();
    desktop = await startDesktop(fake.electron, {
      home,
      staticDir: join(home, 'no-ui'),
      preloadPath: '/p',
      argv: [],
      platform: 'linux',
    });
    const backupFolder = join(home, 'backup');
    await desktop!.server.context.settings.update((current) => ({ ...current, backupFolder }));
    desktop!.server.context.backup.schedule(sampleCanvas('c1', 'Quit test'));
    const prevented = vi.fn();
    fake.emitApp('will-quit', { preventDefault: prevented });
    expect(prevented).toHaveBeenCalled();
    expect(fake.electron.app.quit).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalledTimes(1));
    expect(await readdir(backupFolder)).toEqual(['Quit test.weft.json']);
    // The quit that follows goes through.
    const again = vi.fn();
    fake.emitApp('will-quit', { preventDefault: again });
    expect(again).not.toHaveBeenCalled();
  });

  it('returns null in a second instance', async () => {
    home = await mkdtemp(join(tmpdir(), 'weft-desktop-'));
    const fake = fakeElectron();
    (fake.electron.app as { requestSingleInstanceLock: () => boolean }).requestSingleInstanceLock = () => false;
    expect(
      await startDesktop(fake.electron, { home, staticDir: home, preloadPath: '/p', argv: [], platform: 'linux' }),
    ).toBeNull();
  });
});
