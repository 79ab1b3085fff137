import type { OpenDialogOptions, OpenDialogReturnValue } from 'electron';

export type ShowOpenDialog = (options: OpenDialogOptions) => Promise<OpenDialogReturnValue>;

/** A native folder picker: the chosen absolute path, or null when cancelled. */
export async function pickFolder(showOpenDialog: ShowOpenDialog, title = 'Choose a folder'): Promise<string | null> {
  const result = await showOpenDialog({ title, properties: ['openDirectory', 'createDirectory'] });
  if (result.canceled) return null;
  return result.filePaths[0] ?? null;
}
