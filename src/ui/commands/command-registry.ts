import { shortcutOf, type Command, type KeyLike } from './command.ts';

export class CommandRegistry<Context> {
  private readonly commands = new Map<string, Command<Context>>();

  constructor(commands: readonly Command<Context>[] = []) {
    for (const command of commands) this.register(command);
  }

  register(command: Command<Context>): void {
    if (this.commands.has(command.id)) throw new Error(`command ${command.id} is registered twice`);
    this.commands.set(command.id, command);
  }

  get(id: string): Command<Context> | undefined {
    return this.commands.get(id);
  }

  list(): Command<Context>[] {
    return [...this.commands.values()];
  }

  /** Runs a command if it exists and is enabled; returns whether it ran. */
  async run(id: string, context: Context): Promise<boolean> {
    const command = this.commands.get(id);
    if (!command || !command.enabled(context)) return false;
    await command.perform(context);
    return true;
  }

  /** Finds the command a key press names, honouring text-field focus. */
  match(event: KeyLike, isMac: boolean, inTextField: boolean): Command<Context> | undefined {
    const pressed = shortcutOf(event, isMac);
    for (const command of this.commands.values()) {
      if (command.shortcut !== pressed) continue;
      if (inTextField && !command.inTextFields) continue;
      return command;
    }
    return undefined;
  }
}
