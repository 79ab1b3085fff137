import { nodeAtomicFileSystem, type AtomicFileSystem } from '../../runtime/fs/atomic-write.ts';

export type Step = 'after temp write' | 'after fsync' | 'before rename';

/** The real file system, failing at one named step (the temp file is fully written at that point). */
export function failingAt(step: Step): AtomicFileSystem {
  return {
    ...nodeAtomicFileSystem,
    async writeTemp(path, data, mode) {
      await nodeAtomicFileSystem.writeTemp(path, data, mode);
      if (step === 'after temp write') throw new Error('disk full (injected)');
    },
    async fsyncFile(path) {
      await nodeAtomicFileSystem.fsyncFile(path);
      if (step === 'after fsync') throw new Error('fsync failed (injected)');
    },
    async rename(from, to) {
      if (step === 'before rename') throw new Error('power cut (injected)');
      await nodeAtomicFileSystem.rename(from, to);
    },
  };
}
