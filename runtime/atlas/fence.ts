import { constants, realpathSync } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { WeftError } from '../../protocol/index.ts';

/** Stable codes for every refusal the fence makes. */
export type FenceErrorCode =
  | 'FENCE_NO_ROOTS'
  | 'FENCE_EMPTY_PATH'
  | 'FENCE_NUL_BYTE'
  | 'FENCE_ENCODED_SEPARATOR'
  | 'FENCE_BACKSLASH'
  | 'FENCE_DOT_DOT'
  | 'FENCE_OUTSIDE_ROOTS'
  | 'FENCE_SYMLINK_ESCAPE'
  | 'FENCE_NOT_FOUND'
  | 'FENCE_NOT_FILE';

/**
 * Read-only, and never through a symlink swapped in after `resolve` (O_NOFOLLOW), nor blocking on
 * a FIFO planted under a root (O_NONBLOCK; harmless for regular files). Windows has neither flag.
 */
const READ_ONLY_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export class FenceError extends WeftError {
  declare readonly code: FenceErrorCode;
  readonly path: string;
  constructor(code: FenceErrorCode, message: string, requested: string) {
    super(code, `${code}: ${message}`, null);
    this.name = 'FenceError';
    this.path = requested;
  }
}

/** Percent-encoded separators, dots, backslashes and NUL: refused outright rather than decoded. */
const ENCODED = /%(2f|5c|2e|00)/i;

/**
 * Read-only roots (C18). A path resolves only when its real path (after every symlink) lies inside
 * one of the roots' real paths. The fence never creates, modifies or locks anything.
 */
export class Fence {
  /** Roots as given (absolute, normalised). */
  readonly roots: readonly string[];
  /** Real paths of the roots, or null while a root does not exist (retried, so a root created later works). */
  private readonly realRootCache: (string | null)[];

  constructor(roots: readonly string[]) {
    if (roots.length === 0) throw new FenceError('FENCE_NO_ROOTS', 'at least one root is required', '');
    this.roots = roots.map((root) => path.resolve(root));
    this.realRootCache = this.roots.map(() => null);
  }

  /** Real paths of the roots that exist now. */
  private get realRoots(): string[] {
    return this.roots.flatMap((root, index) => {
      const cached = this.realRootCache[index];
      if (cached !== null && cached !== undefined) return [cached];
      try {
        const real = realpathSync(root);
        this.realRootCache[index] = real;
        return [real];
      } catch {
        return [];
      }
    });
  }

  /** Syntactic checks that need no file system access. */
  static checkSyntax(requested: string): void {
    if (requested.length === 0) throw new FenceError('FENCE_EMPTY_PATH', 'empty path', requested);
    if (requested.includes('\0')) throw new FenceError('FENCE_NUL_BYTE', 'path contains a NUL byte', requested);
    if (ENCODED.test(requested))
      throw new FenceError('FENCE_ENCODED_SEPARATOR', 'path contains an encoded separator or dot', requested);
    if (path.sep === '/' && requested.includes('\\'))
      throw new FenceError('FENCE_BACKSLASH', 'path contains a backslash', requested);
    if (requested.split(/[\\/]/).includes('..'))
      throw new FenceError('FENCE_DOT_DOT', 'path contains a ".." segment', requested);
  }

  /** The root (as given) whose real path contains `real`, or null. */
  rootOfReal(real: string): string | null {
    for (const root of this.realRoots) {
      if (real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) return root;
    }
    return null;
  }

  /**
   * Resolve a path (absolute, or relative to the first root) to its real path inside a root.
   * Throws FenceError with a stable code when refused.
   */
  async resolve(requested: string): Promise<string> {
    Fence.checkSyntax(requested);
    const absolute = path.isAbsolute(requested) ? path.normalize(requested) : path.join(this.roots[0]!, requested);
    const lexicalInside =
      this.roots.some((root) => absolute === root || absolute.startsWith(root + path.sep)) ||
      this.realRoots.some((root) => absolute === root || absolute.startsWith(root + path.sep));
    if (!lexicalInside) throw new FenceError('FENCE_OUTSIDE_ROOTS', 'path is outside every session root', requested);
    let real: string;
    try {
      real = await realpath(absolute);
    } catch {
      throw new FenceError('FENCE_NOT_FOUND', 'path does not exist', requested);
    }
    if (this.rootOfReal(real) === null)
      throw new FenceError('FENCE_SYMLINK_ESCAPE', 'path resolves outside every session root', requested);
    return real;
  }

  /**
   * Resolve through the fence and open the regular file there read-only. The one way atlas code
   * opens a file under a root; the caller closes the handle.
   */
  async open(requested: string): Promise<{ real: string; handle: FileHandle }> {
    const real = await this.resolve(requested);
    let handle: FileHandle;
    try {
      handle = await open(real, READ_ONLY_FLAGS);
    } catch {
      throw new FenceError('FENCE_NOT_FOUND', 'path could not be opened', requested);
    }
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new FenceError('FENCE_NOT_FILE', 'path is not a regular file', requested);
    }
    // A folder swapped for a symlink between resolve() and open() would slip past O_NOFOLLOW (it only
    // guards the last name). Where the kernel names the opened file (Linux /proc), check that name too.
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    if (opened !== null && this.rootOfReal(opened) === null) {
      await handle.close();
      throw new FenceError(
        'FENCE_SYMLINK_ESCAPE',
        'path was redirected outside every session root while opening',
        requested,
      );
    }
    return { real, handle };
  }

  /** True when `resolve` would succeed. */
  async allows(requested: string): Promise<boolean> {
    try {
      await this.resolve(requested);
      return true;
    } catch (error) {
      if (error instanceof FenceError) return false;
      throw error;
    }
  }
}
