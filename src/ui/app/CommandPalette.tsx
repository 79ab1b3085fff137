import { useMemo, useState } from 'react';
import { displayShortcut, filterCommands, overlays, useOverlays, commandRegistry, isMac } from '../commands/index.ts';
import { useEscape, useWeft, useWeftStore } from '../kit/index.ts';

const close = () => overlays.setState({ palette: false });

/** Every command in the registry, filtered as the person types; Enter runs the highlighted one. */
function PaletteList() {
  const store = useWeftStore();
  // Re-rendered on every store change so `enabled` is read against the current state.
  useWeft((state) => state);
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const matches = useMemo(() => filterCommands(commandRegistry.list(), query), [query]);
  const context = { store };
  const run = (index: number) => {
    const command = matches[index];
    if (!command || !command.enabled(context)) return;
    close();
    void commandRegistry.run(command.id, context);
  };
  useEscape(true, close);
  return (
    <div className="palette" role="dialog" aria-label="Command palette" data-testid="command-palette">
      <input
        autoFocus
        data-testid="palette-input"
        placeholder="Type a command…"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setCursor(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setCursor((index) => Math.min(matches.length - 1, index + 1));
          else if (event.key === 'ArrowUp') setCursor((index) => Math.max(0, index - 1));
          else if (event.key === 'Enter') run(cursor);
          else return;
          event.preventDefault();
          // Enter or an arrow here is the palette's, not a canvas shortcut.
          event.stopPropagation();
        }}
      />
      <ul role="listbox">
        {matches.map((command, index) => {
          const enabled = command.enabled(context);
          return (
            <li
              key={command.id}
              role="option"
              data-testid="palette-item"
              data-command={command.id}
              aria-selected={index === cursor}
              aria-disabled={!enabled}
              onMouseEnter={() => setCursor(index)}
              onClick={() => run(index)}
            >
              {command.label}
              {command.shortcut && <span className="keys">{displayShortcut(command.shortcut, isMac)}</span>}
            </li>
          );
        })}
        {matches.length === 0 && <li className="empty">No command matches “{query}”.</li>}
      </ul>
    </div>
  );
}

export function CommandPalette() {
  const open = useOverlays((state) => state.palette);
  if (!open) return null;
  return (
    <div className="overlay top" onClick={close}>
      <div onClick={(event) => event.stopPropagation()}>
        <PaletteList />
      </div>
    </div>
  );
}
