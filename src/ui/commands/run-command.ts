import type { WeftStore } from '../store/index.ts';
import { createAppCommands, type CommandContext } from './app-commands.ts';
import type { CommandRegistry } from './command-registry.ts';
import { everydayCommands } from './everyday-commands.ts';

/** The registry every surface shares: keyboard, toolbar buttons, menus, window.weft and tests. */
export const commandRegistry: CommandRegistry<CommandContext> = createAppCommands();
for (const command of everydayCommands) commandRegistry.register(command);

export function runCommand(store: WeftStore, id: string, argument?: string): Promise<boolean> {
  return commandRegistry.run(id, argument === undefined ? { store } : { store, argument });
}
