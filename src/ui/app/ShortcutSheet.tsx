import { displayShortcut, overlays, useOverlays, commandRegistry, isMac } from '../commands/index.ts';
import { useEscape } from '../kit/index.ts';

const close = () => overlays.setState({ shortcuts: false });
const mod = isMac ? '⌘' : 'Ctrl';

/** Pointer gestures the canvas takes (CanvasView's React Flow settings); they are not commands. */
const GESTURES: [string, string][] = [
  ['Select several cards', `${mod}+click`],
  ['Select a box of cards', 'Shift+drag'],
  ['Menu for a card, wire or the canvas', 'Right-click'],
  ['Wire two cards', 'Drag from a card’s edge'],
];

function Keys({ shortcut }: { shortcut: string }) {
  return (
    <>
      {shortcut.split('+').map((key, index) => (
        <span key={index}>
          {index > 0 && ' '}
          <kbd>{key}</kbd>
        </span>
      ))}
    </>
  );
}

function Sheet() {
  useEscape(true, close);
  const commands = commandRegistry.list().filter((command) => command.shortcut);
  return (
    <div
      className="dialog shortcuts"
      role="dialog"
      aria-label="Keyboard shortcuts"
      data-testid="shortcut-sheet"
      onClick={(event) => event.stopPropagation()}
    >
      <h2>Keyboard shortcuts</h2>
      <table className="shortcut-table">
        <tbody>
          {commands.map((command) => (
            <tr key={command.id} data-testid="shortcut-row" data-command={command.id}>
              <td>{command.label}</td>
              <td>
                <Keys shortcut={displayShortcut(command.shortcut!, isMac)} />
              </td>
            </tr>
          ))}
          {GESTURES.map(([label, keys]) => (
            <tr key={label}>
              <td>{label}</td>
              <td>
                <kbd>{keys}</kbd>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="actions">
        <button className="button" onClick={close}>
          Close
        </button>
      </div>
    </div>
  );
}

/** The shortcut sheet, built from the command registry so it lists exactly what the keyboard does. */
export function ShortcutSheet() {
  const open = useOverlays((state) => state.shortcuts);
  if (!open) return null;
  return (
    <div className="overlay" onClick={close}>
      <Sheet />
    </div>
  );
}
