// src/ui/commands: the command registry shared by keyboard, toolbar, menus, window.weft and tests.
export { CommandRegistry } from './command-registry.ts';
export { shortcutOf, displayShortcut, isMac } from './command.ts';
export type { Command, KeyLike } from './command.ts';
export { appCommands, createAppCommands } from './app-commands.ts';
export type { CommandContext } from './app-commands.ts';
export { commandRegistry, runCommand } from './run-command.ts';
export { canvasBridge } from './canvas-bridge.ts';
export type { CanvasBridge } from './canvas-bridge.ts';
export { everydayCommands } from './everyday-commands.ts';
export { overlays, useOverlays } from './overlay-state.ts';
export type { MenuTarget, OverlayState } from './overlay-state.ts';
export { filterCommands } from './filter-commands.ts';
export { copyText } from './copy-text.ts';
