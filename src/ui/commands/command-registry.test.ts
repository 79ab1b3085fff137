import { describe, expect, it } from 'vitest';
import { CommandRegistry } from './command-registry.ts';
import { shortcutOf } from './command.ts';

const key = (
  key: string,
  extra: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {},
) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...extra,
});

describe('command registry', () => {
  it('maps key presses to commands and respects text fields and enabled()', async () => {
    let count = 0;
    const registry = new CommandRegistry<{ canUndo: boolean }>([
      {
        id: 'undo',
        label: 'Undo',
        shortcut: 'Mod+Z',
        enabled: (context) => context.canUndo,
        perform: () => {
          count += 1;
        },
      },
      { id: 'search', label: 'Search', shortcut: 'Mod+F', inTextFields: true, enabled: () => true, perform: () => {} },
    ]);
    expect(registry.match(key('z', { ctrlKey: true }), false, false)?.id).toBe('undo');
    expect(registry.match(key('z', { metaKey: true }), true, false)?.id).toBe('undo');
    expect(registry.match(key('z', { ctrlKey: true }), false, true)).toBeUndefined();
    expect(registry.match(key('f', { ctrlKey: true }), false, true)?.id).toBe('search');
    expect(await registry.run('undo', { canUndo: false })).toBe(false);
    expect(await registry.run('undo', { canUndo: true })).toBe(true);
    expect(count).toBe(1);
    expect(shortcutOf(key('Z', { ctrlKey: true, shiftKey: true }), false)).toBe('Shift+Mod+Z');
  });
});
