import { z } from 'zod';
import { EventRecordSchema } from './event-record.ts';

/** The `.weft.json` canvas document, version 2. Times are epoch milliseconds. */
export const CANVAS_FORMAT = 'weft.canvas';
export const CANVAS_VERSION = 2;

const Id = z.string().min(1).max(200);
const Time = z.number().int().nonnegative();
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex SHA-256');

export const PositionSchema = z.object({ x: z.number(), y: z.number() });
export const SizeSchema = z.object({ width: z.number().positive(), height: z.number().positive() });

/** Per upstream node: a hash and a 240-character opening, so the UI can say what changed. */
export const UpstreamPartSchema = z.object({ nodeId: Id, hash: Sha256, opening: z.string().max(240) });
export type UpstreamPart = z.infer<typeof UpstreamPartSchema>;

/** Another version whose recorded upstream this one's extends (normally the parent's answer it was asked after). */
export const UpstreamBaseSchema = z.object({ nodeId: Id, versionId: Id });
export type UpstreamBase = z.infer<typeof UpstreamBaseSchema>;

/**
 * What a version records about its upstream parts (C6), as a difference from a base version's record: the parts
 * that are new or differ, and the base's node ids no longer upstream. A chain answer records one part (its
 * parent's), so the document grows with the canvas, not with nodes × depth (version 1 stored every part).
 * `src/core`'s `recordedUpstreamParts` folds the bases back into the full list.
 */
export const UpstreamRecordSchema = z.object({
  base: UpstreamBaseSchema.nullable(),
  parts: z.array(UpstreamPartSchema),
  removed: z.array(Id),
});
export type UpstreamRecord = z.infer<typeof UpstreamRecordSchema>;

export const VersionSchema = z.object({
  id: Id,
  text: z.string(),
  /** The question exactly as it was asked for this version. */
  question: z.string(),
  model: z.string(),
  createdAt: Time,
  /** SHA-256 of the canonical request this answer was generated from (C9); null for pre-written demo text. */
  requestHash: Sha256.nullable(),
  /** Fingerprint of the compiled upstream when asked (C6). */
  upstreamFingerprint: Sha256,
  upstream: UpstreamRecordSchema,
  /** `demo` marks pre-written answers so the UI can label them; `generated` is a real model answer. */
  origin: z.enum(['generated', 'demo', 'imported']),
  status: z.enum(['complete', 'failed', 'aborted']),
  /** Set when this version was generated as a sibling branch of another version. */
  branchOf: Id.nullable(),
});
export type Version = z.infer<typeof VersionSchema>;

const NodeBase = {
  id: Id,
  createdAt: Time,
  position: PositionSchema,
  size: SizeSchema.nullable(),
  archived: z.boolean(),
  archivedAt: Time.nullable(),
  /** Part ids (or `attachment:<hash>`) this node leaves out of its own compiled context. */
  excludedParts: z.array(z.string()),
};

export const AutoRerunSchema = z.object({ enabled: z.boolean(), rounds: z.number().int().min(1).max(10) });

export const QuestionNodeSchema = z.object({
  ...NodeBase,
  kind: z.literal('question'),
  question: z.string(),
  versions: z.array(VersionSchema),
  currentVersionId: Id.nullable(),
  autoRerun: AutoRerunSchema,
  /** Model pinned for this node, or null for the canvas default. */
  model: z.string().nullable(),
  /** Attachments (by hash) the person put on the question itself, e.g. an image. */
  attachments: z.array(Sha256),
});

export const NoteNodeSchema = z.object({ ...NodeBase, kind: z.literal('note'), text: z.string() });

export const MaterialProvenanceSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('pdf'),
    fileName: z.string(),
    pages: z.array(z.number().int().positive()),
    documentHash: Sha256.nullable(),
  }),
  z.object({ type: z.literal('url'), url: z.string(), finalUrl: z.string(), fetchedAt: Time, title: z.string() }),
  z.object({ type: z.literal('pasted') }),
  z.object({ type: z.literal('image'), attachmentHash: Sha256, fileName: z.string() }),
]);
export type MaterialProvenance = z.infer<typeof MaterialProvenanceSchema>;

export const MaterialNodeSchema = z.object({
  ...NodeBase,
  kind: z.literal('material'),
  title: z.string(),
  text: z.string(),
  provenance: MaterialProvenanceSchema,
});

export const FrameNodeSchema = z.object({ ...NodeBase, kind: z.literal('frame'), label: z.string() });

/** One tool step of a mirrored agent turn, folded into the turn's execution record (C20). */
export const ExecutionStepSchema = z.object({
  name: z.string(),
  op: z.enum(['read', 'write', 'edit', 'delete', 'run', 'search', 'fetch', 'agent', 'other']),
  inputSummary: z.string(),
  files: z.array(z.string()),
  resultSummary: z.string(),
  isError: z.boolean(),
});

export const MirrorSourceSchema = z.object({
  runner: z.enum(['claude-code', 'codex', 'pi']),
  sessionId: z.string(),
  turnKey: z.string(),
  turnNumber: z.number().int().positive(),
  question: z.string(),
  answer: z.string(),
  model: z.string().nullable(),
  at: Time.nullable(),
  steps: z.array(ExecutionStepSchema),
  /** Set for a turn of a subagent run: the turn key that delegated it. */
  delegatedBy: z.string().nullable(),
});

export const MirrorNodeSchema = z.object({
  ...NodeBase,
  kind: z.literal('mirror'),
  /** Frozen snapshot of the source turn; never edited. */
  source: MirrorSourceSchema,
  /** The editable copy that enters context. */
  question: z.string(),
  answer: z.string(),
  /** Whether the full execution record enters context (default false: only the one-line file summary). */
  includeExecution: z.boolean(),
});

export const CanvasNodeSchema = z.discriminatedUnion('kind', [
  QuestionNodeSchema,
  NoteNodeSchema,
  MaterialNodeSchema,
  FrameNodeSchema,
  MirrorNodeSchema,
]);
export type CanvasNode = z.infer<typeof CanvasNodeSchema>;
export type QuestionNode = z.infer<typeof QuestionNodeSchema>;
export type NoteNode = z.infer<typeof NoteNodeSchema>;
export type MaterialNode = z.infer<typeof MaterialNodeSchema>;
export type FrameNode = z.infer<typeof FrameNodeSchema>;
export type MirrorNode = z.infer<typeof MirrorNodeSchema>;
export type NodeKind = CanvasNode['kind'];

export const WireSchema = z.discriminatedUnion('kind', [
  z.object({ id: Id, from: Id, to: Id, createdAt: Time, kind: z.literal('solid') }),
  z.object({ id: Id, from: Id, to: Id, createdAt: Time, kind: z.literal('dashed'), depth: z.enum(['quote', 'full']) }),
]);
export type Wire = z.infer<typeof WireSchema>;

/** Attachments are identified by the SHA-256 of their bytes; bytes travel base64 in the document. */
export const AttachmentSchema = z.object({
  hash: Sha256,
  mediaType: z.string(),
  name: z.string(),
  byteLength: z.number().int().nonnegative(),
  dataBase64: z.string(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** A stale judge's dismissal, keyed on the fingerprint it judged (C7); a person's overrule wins. */
export const StaleDismissalSchema = z.object({
  nodeId: Id,
  fingerprint: Sha256,
  probability: z.number().min(0).max(1),
  reason: z.string().max(500),
  at: Time,
  overruled: z.boolean(),
});
export type StaleDismissal = z.infer<typeof StaleDismissalSchema>;

/** Per mirrored session: which turns are already on the canvas (C20 idempotence). */
export const MirrorLedgerSchema = z.object({
  runner: z.enum(['claude-code', 'codex', 'pi']),
  sessionId: z.string(),
  sourcePath: z.string(),
  turnKeys: z.array(z.string()),
  nodeIdByTurnKey: z.record(z.string(), Id),
  following: z.boolean(),
});
export type MirrorLedger = z.infer<typeof MirrorLedgerSchema>;

export const CanvasMetaSchema = z.object({
  id: Id,
  name: z.string().min(1).max(200),
  workingDirectory: z.string().nullable(),
  createdAt: Time,
});
export type CanvasMeta = z.infer<typeof CanvasMetaSchema>;

export const CanvasDocumentSchema = z.object({
  format: z.literal(CANVAS_FORMAT),
  version: z.literal(CANVAS_VERSION),
  canvas: CanvasMetaSchema,
  nodes: z.array(CanvasNodeSchema),
  wires: z.array(WireSchema),
  attachments: z.array(AttachmentSchema),
  dismissals: z.array(StaleDismissalSchema),
  ledgers: z.array(MirrorLedgerSchema),
  events: z.array(EventRecordSchema),
});
export type CanvasDocument = z.infer<typeof CanvasDocumentSchema>;
