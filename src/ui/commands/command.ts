/**
 * A command is a small object the keyboard, menus, the palette, the desktop shell and tests all
 * run the same way (docs/architecture.md style 7). `perform` receives the app context; it never holds state.
 */
export interface Command<Context> {
  id: string;
  label: string;
  /** e.g. 'Mod+Z', 'Shift+Mod+Z', 'Delete', 'Mod+F'. `Mod` is Cmd on macOS, Ctrl elsewhere. */
  shortcut?: string;
  /** Whether the shortcut also fires while typing in a text field. */
  inTextFields?: boolean;
  enabled(context: Context): boolean;
  perform(context: Context): void | Promise<void>;
}

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** Normalises a keyboard event into the shortcut notation above. */
export function shortcutOf(event: KeyLike, isMac: boolean): string {
  const parts: string[] = [];
  if (isMac ? event.metaKey : event.ctrlKey) parts.push('Mod');
  if (event.shiftKey) parts.push('Shift');
  if (event.altKey) parts.push('Alt');
  const key = event.key.length === 1 ? event.key.toUpperCase() : event.key;
  parts.push(key);
  return parts.sort((a, b) => order(a) - order(b)).join('+');
}

function order(part: string): number {
  return part === 'Shift' ? 0 : part === 'Alt' ? 1 : part === 'Mod' ? 2 : 3;
}

/** Whether this renderer runs on a Mac, where `Mod` is ⌘ (one test for every shortcut shown or matched). */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

// A shortcut on a shifted digit matches the character the key types (`!` for Shift+1); the person reads the key.
const SHIFTED_DIGIT: Record<string, string> = {
  '!': '1',
  '@': '2',
  '#': '3',
  $: '4',
  '%': '5',
  '^': '6',
  '&': '7',
  '*': '8',
  '(': '9',
  ')': '0',
};

/** Shows a shortcut for the person: `Mod` becomes ⌘ or Ctrl, and a shifted digit shows its key (Shift+1). */
export function displayShortcut(shortcut: string, isMac: boolean): string {
  const parts = shortcut.split('+');
  const key = parts[parts.length - 1]!;
  if (parts.includes('Shift') && SHIFTED_DIGIT[key]) parts[parts.length - 1] = SHIFTED_DIGIT[key];
  return parts.map((part) => (part === 'Mod' ? (isMac ? '⌘' : 'Ctrl') : part)).join('+');
}
