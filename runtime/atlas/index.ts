// Public API of the atlas: one adapter per runner, fenced read-only session roots, memory files.
export type { ParseReport, Runner, Session, ToolOp, ToolStep, Turn } from '../../protocol/index.ts';
export type { AtlasSession } from './session-builder.ts';
export { detectRunner } from './detect-runner.ts';
export { createSessionAccumulator, SessionAccumulator, SessionStateError } from './session-accumulator.ts';
export { readSessionFile, PREFIX_HASH_BYTES } from './read-session-file.ts';
export type { ReadSessionOptions, ReadSessionResult } from './read-session-file.ts';
export {
  listSessionFiles,
  listSessionFilesSync,
  SESSION_LIST_MAX_DEPTH,
  SESSION_SKIP_DIRS,
  SESSION_SKIP_FILES,
} from './list-session-files.ts';
export type { SessionFileInfo } from './list-session-files.ts';
export { Fence, FenceError } from './fence.ts';
export type { FenceErrorCode } from './fence.ts';
export {
  agentLaneCodexSessions,
  defaultSessionRoots,
  readChosenSessionRoots,
  resolveSessionRoots,
  sessionRootsFromEnv,
} from './session-roots.ts';
export type { SessionRoots } from './session-roots.ts';
export { checkSessionRoot } from './check-session-root.ts';
export type { SessionRootGuard } from './check-session-root.ts';
export { discoverMemoryFiles, MAX_MEMORY_BYTES } from './memory-files.ts';
export type { MemoryFile, MemoryKind } from './memory-files.ts';
export { findReferences } from './references.ts';
export { linkSessions } from './subagent-links.ts';
export type { AtlasTurn } from './session-builder.ts';
export { MAX_LINE_BYTES } from './line-decoder.ts';
