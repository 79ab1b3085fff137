import type { WeftStore } from '../store/weft-store.ts';
import { createAppCommands, type CommandContext } from './app-commands.ts';
import type { CommandRegistry } from './command-registry.ts';

/** The registry every surface shares: keyboard, toolbar buttons, menus, window.weft and tests. */
export const commandRegistry: CommandRegistry<CommandContext> = createAppCommands();

export function runCommand(store: WeftStore, id: string): Promise<boolean> {
  return commandRegistry.run(id, { store });
}
