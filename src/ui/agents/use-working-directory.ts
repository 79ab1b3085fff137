import { useState } from 'react';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { agentApi, describeError } from '../api/index.ts';
import { desktopFolderPicker } from './desktop-folder-picker.ts';

export interface WorkingDirectory {
  /** The canvas's working directory, or null. */
  folder: string | null;
  /** Saves a typed or picked folder once the server has checked it ('' clears it); a refusal is kept, not thrown. */
  setFolder: (typed: string) => Promise<void>;
  checking: boolean;
  refusal: { code: string; message: string } | null;
  /** The desktop shell's folder picker, or null in the browser. */
  pick: (() => Promise<string | null>) | null;
}

/**
 * The canvas's working directory and the one way to set it (the agent lane's settings and recall's "set one" both
 * use it): the server checks the folder (exists, a folder, no session root), then `set-agent-settings` saves it with
 * the canvas's guard and network as they are.
 */
export function useWorkingDirectory(): WorkingDirectory {
  const store = useWeftStore();
  const folder = useWeft((state) => state.graph?.canvas.workingDirectory ?? null);
  const [refusal, setRefusal] = useState<{ code: string; message: string } | null>(null);
  const [checking, setChecking] = useState(false);
  const save = (workingDirectory: string | null) => {
    const canvas = store.getState().graph?.canvas;
    store.getState().apply({
      type: 'set-agent-settings',
      workingDirectory,
      guard: canvas?.agentGuard ?? 'ask',
      network: canvas?.agentNetwork === true,
    });
  };
  const setFolder = async (typed: string) => {
    setRefusal(null);
    if (typed === '') return save(null);
    setChecking(true);
    try {
      save(await agentApi.checkFolder(typed));
    } catch (error) {
      setRefusal(describeError(error));
    } finally {
      setChecking(false);
    }
  };
  return { folder, setFolder, checking, refusal, pick: desktopFolderPicker() };
}
