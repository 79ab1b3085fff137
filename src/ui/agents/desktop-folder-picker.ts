/** What the desktop shell's preload exposes (`desktop/preload.ts`); absent in the browser. */
interface WeftDesktopBridge {
  pickFolder(): Promise<string | null>;
}

/** The native folder picker when the app runs in the desktop shell, else null (the browser types a path). */
export function desktopFolderPicker(): (() => Promise<string | null>) | null {
  const bridge = (window as unknown as { weftDesktop?: Partial<WeftDesktopBridge> }).weftDesktop;
  const pick = bridge?.pickFolder;
  return typeof pick === 'function' ? () => pick.call(bridge) : null;
}
