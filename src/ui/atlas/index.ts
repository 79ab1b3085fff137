// src/ui/atlas: the Session Atlas browser, the Why panel, mirror/follow actions and the mirror node extras.
export { AtlasTabs } from './AtlasTabs.tsx';
export { AtlasLayer } from './AtlasLayer.tsx';
export { MirrorNodeExtras, MirrorCardMarks } from './MirrorNodeExtras.tsx';
export {
  mirrorSession,
  applyMirror,
  setFollowing,
  syncFollowed,
  openTurn,
  revealNode,
  ledgerFor,
  mirrorOrigin,
} from './mirror-actions.ts';
export type { MirrorTarget } from './mirror-actions.ts';
export { atlasApi } from './atlas-api.ts';
export { atlasStore } from './atlas-state.ts';
export { askWhy, loadSessions, setWhyIncludeRead } from './atlas-loading.ts';
export { pathsInText, RUNNER_LABEL } from './format.ts';
export { WhyFileLinks } from './WhyFileLinks.tsx';
export { AttachmentText } from './AttachmentText.tsx';
