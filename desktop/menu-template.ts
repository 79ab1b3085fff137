import type { MenuItemConstructorOptions } from 'electron';

/**
 * Command ids the native menus send to the renderer (via `weftDesktop.onCommand`). The renderer
 * runs them through its command registry; ids it does not know are ignored there.
 */
export const MENU_COMMANDS = {
  newCanvas: 'new-canvas',
  importCanvas: 'import-canvas',
  exportCanvas: 'export-canvas',
  undo: 'undo',
  redo: 'redo',
  selectAll: 'select-all',
  search: 'search',
  showCanvas: 'show-canvas',
  showEvents: 'show-events',
  showSettings: 'show-settings',
  fitView: 'fit-view',
  togglePreview: 'toggle-preview',
} as const;
export type MenuCommandId = (typeof MENU_COMMANDS)[keyof typeof MENU_COMMANDS];

export interface MenuTemplateOptions {
  platform: NodeJS.Platform;
  appName: string;
  send: (commandId: MenuCommandId) => void;
  /** Developer tools only in development builds. */
  developer: boolean;
}

/** File, Edit and View menus (plus the app menu on macOS). Undo/redo belong to the canvas, not the text field. */
export function menuTemplate(options: MenuTemplateOptions): MenuItemConstructorOptions[] {
  const command = (label: string, id: MenuCommandId, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    id,
    accelerator,
    click: () => options.send(id),
  });
  const mac = options.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: options.appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push({
    label: 'File',
    submenu: [
      command('New canvas', MENU_COMMANDS.newCanvas, 'CmdOrCtrl+Shift+N'),
      { type: 'separator' },
      command('Import…', MENU_COMMANDS.importCanvas, 'CmdOrCtrl+O'),
      command('Export…', MENU_COMMANDS.exportCanvas, 'CmdOrCtrl+Shift+E'),
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  });
  template.push({
    label: 'Edit',
    submenu: [
      command('Undo', MENU_COMMANDS.undo, 'CmdOrCtrl+Z'),
      command('Redo', MENU_COMMANDS.redo, mac ? 'Shift+Cmd+Z' : 'Ctrl+Y'),
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      command('Select all', MENU_COMMANDS.selectAll, 'CmdOrCtrl+A'),
      { type: 'separator' },
      command('Search the canvas', MENU_COMMANDS.search, 'CmdOrCtrl+F'),
    ],
  });
  const viewItems: MenuItemConstructorOptions[] = [
    command('Canvas', MENU_COMMANDS.showCanvas, 'Alt+1'),
    command('Event log', MENU_COMMANDS.showEvents, 'Alt+2'),
    command('Settings', MENU_COMMANDS.showSettings, 'Alt+3'),
    { type: 'separator' },
    command('Fit view', MENU_COMMANDS.fitView, 'Shift+1'),
    command('Will-send preview', MENU_COMMANDS.togglePreview, 'CmdOrCtrl+.'),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (options.developer) viewItems.push({ type: 'separator' }, { role: 'reload' }, { role: 'toggleDevTools' });
  template.push({ label: 'View', submenu: viewItems });
  return template;
}
