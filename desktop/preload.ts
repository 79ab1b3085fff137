import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

// Kept self-contained (no imports besides electron): sandboxed preloads can only require 'electron'.
const COMMAND = 'weft:command';
const PICK_FOLDER = 'weft:pick-folder';

/** The tiny API the renderer sees as `window.weftDesktop` (absent in web mode). */
const weftDesktop = {
  /** Menu commands and `weft://` links; returns an unsubscribe function. */
  onCommand(callback: (commandId: string, payload?: unknown) => void): () => void {
    const listener = (_event: IpcRendererEvent, commandId: unknown, payload: unknown) => {
      if (typeof commandId === 'string') callback(commandId, payload);
    };
    ipcRenderer.on(COMMAND, listener);
    return () => ipcRenderer.removeListener(COMMAND, listener);
  },
  /** A native folder picker; resolves to an absolute path or null. */
  pickFolder(): Promise<string | null> {
    return ipcRenderer.invoke(PICK_FOLDER) as Promise<string | null>;
  },
};

contextBridge.exposeInMainWorld('weftDesktop', weftDesktop);
