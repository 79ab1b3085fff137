/** Types for the guard Weft loads into Pi (pi-guard-extension.mjs, plain JS because it runs inside Pi). */
export declare const ALLOW_ONCE: string;
export declare const ALLOW_TURN: string;
export declare const DENY: string;
export default function weftGuard(pi: {
  on(event: string, handler: (event: unknown, context: unknown) => unknown): void;
}): void;
/** A tool's path as Pi's tools read it: leading `@` dropped, unicode spaces made plain, `~` expanded. */
export declare function expandPiPath(named: string): string;
/** The path outside `root` that the absolute `target` reaches by its text or through links, or null. */
export declare function pathOutsideFolder(root: string, target: string): string | null;
/** The shell command run in a nested bubblewrap with an empty network namespace (`bwrap` is its path). */
export declare function withoutNetwork(bwrap: string, command: string): string;
