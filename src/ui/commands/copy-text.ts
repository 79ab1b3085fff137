import type { WeftState } from '../store/index.ts';

/** Puts `text` on the clipboard and says so; a refused clipboard is a toast, never a silent no-op. */
export async function copyText(state: Pick<WeftState, 'toast'>, text: string, what: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    state.toast('info', 'copied', `Copied ${what}.`);
    return true;
  } catch (error) {
    state.toast('error', 'clipboard', `Could not copy ${what}: ${error instanceof Error ? error.message : 'refused'}.`);
    return false;
  }
}
