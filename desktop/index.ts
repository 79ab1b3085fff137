// desktop: the Electron shell (C27). Entry: main.ts (bundled by build-desktop.mjs); preload.ts exposes `weftDesktop`.
export { startDesktop } from './desktop-app.ts';
export type { ElectronModule, DesktopOptions, RunningDesktop } from './desktop-app.ts';
export { windowOptions, isAllowedNavigation, isExternalLink, windowOpenDecision } from './window-options.ts';
export { menuTemplate, MENU_COMMANDS } from './menu-template.ts';
export type { MenuCommandId, MenuTemplateOptions } from './menu-template.ts';
export { parseDeepLink, deepLinkFromArgv, DEEP_LINK_SCHEME } from './deep-link.ts';
export type { DeepLink } from './deep-link.ts';
export { claimSingleInstance } from './single-instance.ts';
export type { InstanceApp } from './single-instance.ts';
export { safeStorageCipher } from './safe-storage-cipher.ts';
export type { SafeStorageLike } from './safe-storage-cipher.ts';
export { pickFolder } from './folder-picker.ts';
export { IPC } from './ipc-channels.ts';
