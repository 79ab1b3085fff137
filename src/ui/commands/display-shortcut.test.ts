import { describe, expect, it } from 'vitest';
import { displayShortcut, shortcutOf } from './command.ts';
import { appCommands } from './app-commands.ts';

describe('displayShortcut', () => {
  it('names the modifier of the platform', () => {
    expect(displayShortcut('Shift+Mod+Z', true)).toBe('Shift+⌘+Z');
    expect(displayShortcut('Mod+F', false)).toBe('Ctrl+F');
  });

  it('shows the key of a shifted digit, while matching still uses the character it types', () => {
    const pressed = shortcutOf({ key: '!', shiftKey: true, ctrlKey: false, metaKey: false, altKey: false }, false);
    expect(pressed).toBe('Shift+!');
    expect(displayShortcut(pressed, false)).toBe('Shift+1');
  });

  it('shows every app shortcut as keys a person can press (no shifted symbol)', () => {
    for (const command of appCommands) {
      if (!command.shortcut) continue;
      expect(displayShortcut(command.shortcut, false), command.id).not.toMatch(/Shift\+[!@#$%^&*()]/);
    }
  });
});
