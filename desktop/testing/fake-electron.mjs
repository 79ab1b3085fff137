// A stand-in `electron` module for running the bundled main process under plain Node (bundle.test.ts).
// It behaves just enough like Electron for the shell to start: it follows the window's token link
// like a browser and prints what happened as JSON lines.
const report = (entry) => process.stdout.write(JSON.stringify(entry) + '\n');

class BrowserWindow {
  constructor(options) {
    report({ window: options.webPreferences });
    this.webContents = {
      send: (...args) => report({ send: args }),
      on: () => undefined,
      setWindowOpenHandler: () => undefined,
    };
  }
  async loadURL(url) {
    const landing = await fetch(url, { redirect: 'manual' });
    const cookie = String(landing.headers.get('set-cookie')).split(';')[0];
    const health = await fetch(new URL('/api/health', url), { headers: { cookie } });
    report({
      loaded: { status: landing.status, location: landing.headers.get('location'), health: await health.json() },
    });
    setTimeout(() => process.exit(0), 50);
  }
  once() {}
  show() {}
  focus() {}
  isMinimized() {
    return false;
  }
  restore() {}
}

const app = {
  requestSingleInstanceLock: () => true,
  quit: () => undefined,
  exit: (code) => process.exit(code),
  whenReady: async () => undefined,
  setAsDefaultProtocolClient: (scheme) => report({ protocol: scheme }) ?? true,
  on: () => undefined,
  getName: () => 'Weft',
  isPackaged: false,
};

export default {
  app,
  BrowserWindow,
  Menu: {
    buildFromTemplate: (template) => template,
    setApplicationMenu: (menu) => report({ menu: menu.map((item) => item.label) }),
  },
  shell: { openExternal: async () => undefined },
  dialog: { showOpenDialog: async () => ({ canceled: true, filePaths: [] }) },
  ipcMain: { handle: () => undefined },
  safeStorage: { isEncryptionAvailable: () => false },
};
