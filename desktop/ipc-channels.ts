/** IPC channel names shared by the main process and the preload. */
export const IPC = {
  command: 'weft:command',
  pickFolder: 'weft:pick-folder',
} as const;
