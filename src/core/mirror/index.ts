// Public API of the mirror planner (C20): pure, deterministic, no I/O.
export { planMirror, compactionKey } from './plan-mirror.ts';
export type { MirrorPlan, MirrorPlanCounts, MirrorPlanOptions } from './plan-mirror.ts';
export { mirrorSourceFromTurn, isMirrorEdited, sameSource, touchedFiles } from './mirror-source.ts';
export type { MirrorSource } from './mirror-source.ts';
export { MIRROR_ROW_GAP, MIRROR_BRANCH_GAP, MIRROR_NOTE_GAP } from './mirror-layout.ts';
export { attachmentParts, clipParts, attachmentPlainText } from './attachment-parts.ts';
export type { AttachmentPart } from './attachment-parts.ts';
