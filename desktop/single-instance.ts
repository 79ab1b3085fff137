/** The part of Electron's `app` the single-instance lock needs (injectable for tests). */
export interface InstanceApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'second-instance', listener: (event: unknown, argv: string[], workingDirectory: string) => void): unknown;
}

/**
 * One Weft per user: a second launch hands its arguments (e.g. a `weft://` link) to the first and
 * quits. Returns false in the second instance.
 */
export function claimSingleInstance(app: InstanceApp, onSecondInstance: (argv: string[]) => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv) => onSecondInstance(argv));
  return true;
}
