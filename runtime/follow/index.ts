// Public API of runtime/follow: live following of agent sessions (C20) and the persisted follow list.
export { SessionFollower } from './session-follower.ts';
export type { SessionFollowerOptions } from './session-follower.ts';
export { FollowStore, followsPath } from './follow-store.ts';
