import { z } from 'zod';
import { StoredEventSchema, chainedEvents } from './stored-events.ts';
import { AgentVersionSchema, GuardModeSchema } from './agent-lane.ts';
import { ChatToolIdSchema, TOOL_CALLS_MAX, ToolCallRecordSchema } from './chat-tools.ts';
import { ToolDeclarationSchema } from './chat-tools.ts';
import { MCP_NODE_TOOLS_MAX } from './mcp-tools.ts';
import { PlaqueSchema } from './plaque.ts';
import { MemoryReadingSchema } from './memory-reading.ts';
import { ModelSetSchema, SetAnswerSchema } from './model-set.ts';
import { RunTagSchema } from './run-tag.ts';
import { AnswerChecksSchema, CHECKS_MAX, RubricNoteSchema } from './answer-check.ts';
import { RecallSettingSchema, RecallSnapshotSchema } from './recall-api.ts';

/** The `.weft.json` canvas document, version 4 (stored form: `canvas-stored-form.ts`). Times are epoch milliseconds. */
export const CANVAS_FORMAT = 'weft.canvas';
export const CANVAS_VERSION = 4;

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

/**
 * Who wrote a question's text (C14: only the person's own words become facts). `model`: a model proposed it (a
 * fan-out sub-question kept as proposed); `app`: Weft wrote it (merge's synthesis and condense's conclusion
 * questions, the rule fan-out's sub-questions, the demo canvas). A question the person edits becomes `person`.
 * **Rule for documents from before this field:** an absent `questionAuthor` is decided by `questionAuthor`
 * (question-author.ts): `app` for the texts the app wrote before authorship was recorded, `person` otherwise.
 */
export const QuestionAuthorSchema = z.enum(['person', 'model', 'app']);
export type QuestionAuthor = z.infer<typeof QuestionAuthorSchema>;

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
  /** `demo` marks pre-written answers so the UI can label them; `generated` is a real model answer; `manual` is a person's edit of one. */
  origin: z.enum(['generated', 'demo', 'imported', 'manual']),
  status: z.enum(['complete', 'failed', 'aborted']),
  /** The version this one was generated as a sibling branch of, or (`manual`) edited from. */
  branchOf: Id.nullable(),
  /** Set on an agent-lane answer (C24): its session, footprints, approvals and changed files. */
  agent: AgentVersionSchema.optional(),
  /** Whether the request carried the [Memory] profile block (C14); absent on versions from before memory. */
  memorySent: z.boolean().optional(),
  /** C29: the role (system prompt) this version was asked under, frozen with the node it came from. */
  role: z.object({ text: z.string(), sourceId: Id }).nullable().optional(),
  /** C35: the tool calls the model made while writing this answer, in order, with their bounded results. */
  toolCalls: z.array(ToolCallRecordSchema).max(TOOL_CALLS_MAX).optional(),
  /** C32: this answer's plaque (display only: never in context or fingerprints); absent until one is written. */
  plaque: PlaqueSchema.optional(),
  /** C14: who wrote `question` as it was asked, frozen with it (the node's author can change later); see `versionQuestionAuthor`. */
  questionAuthor: QuestionAuthorSchema.optional(),
  /** C16: what recall brought into this version's request (sources and the block's hash); absent without recall. */
  recall: RecallSnapshotSchema.optional(),
  /** Issue 31: set on an answer of a model set's ask (its set, model, sample, settings, shared context hash). */
  setAnswer: SetAnswerSchema.optional(),
  /** Issue 31: set on an answer a re-run under another model wrote (the run's name and model); never selected. */
  run: RunTagSchema.optional(),
  /** Issue 31: the judge's reason per rubric check (C10: the `check` event holds the verdict and names this note). */
  rubricNotes: z.array(RubricNoteSchema).max(CHECKS_MAX).optional(),
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

/** C29: a node's role: inherit its parents', set one for itself and what follows, or reset to none here. */
export const RoleSettingSchema = z.object({ mode: z.enum(['inherit', 'set', 'reset']), text: z.string().max(20_000) });
export type RoleSetting = z.infer<typeof RoleSettingSchema>;

/** C30: a passage of another node's answer this question is about, with its offsets in the version it came from. */
export const PassageSchema = z.object({
  sourceId: Id,
  versionId: Id.nullable(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  text: z.string().min(1).max(20_000),
});
export type Passage = z.infer<typeof PassageSchema>;

/** C33: a highlighted span of one version's answer. */
export const HighlightSchema = z.object({
  versionId: Id,
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  text: z.string().min(1).max(20_000),
});
export type Highlight = z.infer<typeof HighlightSchema>;

/** C33: how a highlighted answer enters context downstream. */
export const HighlightModeSchema = z.enum(['full', 'tag', 'only']);
export type HighlightMode = z.infer<typeof HighlightModeSchema>;

export const AutoRerunSchema = z.object({ enabled: z.boolean(), rounds: z.number().int().min(1).max(10) });

export const QuestionNodeSchema = z.object({
  ...NodeBase,
  kind: z.literal('question'),
  question: z.string(),
  questionAuthor: QuestionAuthorSchema.optional(),
  versions: z.array(VersionSchema),
  currentVersionId: Id.nullable(),
  autoRerun: AutoRerunSchema,
  /** Model pinned for this node, or null for the canvas default. */
  model: z.string().nullable(),
  /** Attachments (by hash) the person put on the question itself, e.g. an image. */
  attachments: z.array(Sha256),
  /** C29: absent means inherit. */
  role: RoleSettingSchema.optional(),
  /** C29: when parents bring different roles, the node the person picked the role of. */
  rolePick: Id.nullable().optional(),
  /** C30: set when this question was branched from a passage of another answer. */
  passage: PassageSchema.optional(),
  /** C33: highlights in this node's answers; only the current version's apply. */
  highlights: z.array(HighlightSchema).optional(),
  /** C33: absent means `full`. */
  highlightMode: HighlightModeSchema.optional(),
  /** C24: an agent answer's footprints enter downstream context in full; absent means one line naming the files. */
  includeFootprints: z.boolean().optional(),
  /**
   * C24: folders the person granted this node's agent turns besides the working directory (writable inside the
   * sandbox); the server reads them from the saved node and checks each as it checks a working directory.
   */
  agentGrants: z.array(z.string().min(1).max(4096)).max(16).optional(),
  /** C35: the tools this question's model may call; absent or empty means none (tools are off by default). */
  tools: z.array(ChatToolIdSchema).max(8).optional(),
  /** C35: the MCP tools switched on, each as declared when switched on (the request offers these bytes). */
  mcpTools: z.array(ToolDeclarationSchema).max(MCP_NODE_TOOLS_MAX).optional(),
  /** C16: recall into this node's asks; absent means off. Optional, so no format bump. */
  recall: RecallSettingSchema.optional(),
  /** #29: inferred items and an "as of" date for this node's memory; absent means the defaults. Optional, no bump. */
  memoryReading: MemoryReadingSchema.optional(),
  /** Issue 31: the models this question is asked of together ("Ask several…"); absent means one model. No bump. */
  modelSet: ModelSetSchema.optional(),
  /** Issue 31: checks that score every version of this question; display and events only, never in a request. */
  checks: AnswerChecksSchema.optional(),
});

/**
 * Who wrote a note (C14: only the person's own words become facts). `app` marks a note Weft wrote (the demo
 * canvas's note, a mirrored session's "Context compacted" note); a note the person edits becomes `person`.
 * **Rule for documents from before this field:** an absent `author` is decided by `noteAuthor` (note-author.ts):
 * `app` for the two texts the app wrote before authorship was recorded, `person` otherwise. No version bump: the
 * field is optional and every reader goes through `noteAuthor`.
 */
export const NoteAuthorSchema = z.enum(['person', 'app']);
export type NoteAuthor = z.infer<typeof NoteAuthorSchema>;

export const NoteNodeSchema = z.object({
  ...NodeBase,
  kind: z.literal('note'),
  text: z.string(),
  author: NoteAuthorSchema.optional(),
});

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
  /** An imported document (C34): Markdown, HTML (readable text) or DOCX, identified by the hash of its bytes. */
  z.object({
    type: z.literal('file'),
    fileName: z.string(),
    format: z.enum(['markdown', 'html', 'docx']),
    documentHash: Sha256,
    importedAt: Time,
  }),
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
  z.object({
    id: Id,
    from: Id,
    to: Id,
    createdAt: Time,
    kind: z.literal('dashed'),
    depth: z.enum(['quote', 'full']),
    /** C31: the wire is an @-mention in the target's question; removing one removes the other. */
    mention: z.boolean().optional(),
  }),
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
  /** The agent lane's guard for this canvas (C24); absent means ask. */
  agentGuard: GuardModeSchema.optional(),
  /** Whether Codex's sandbox lets the agent reach the network (C24); absent means off. Pi has no such sandbox. */
  agentNetwork: z.boolean().optional(),
  /** C35: whether this canvas's questions may offer their tools at all; absent means off (tools are off by default). */
  toolsAllowed: z.boolean().optional(),
});
export type CanvasMeta = z.infer<typeof CanvasMetaSchema>;

/** The full form (every field, events as objects); `CanvasDocumentSchema` (canvas-stored-form.ts) also reads the stored form. */
export const CanvasRecordsSchema = z.object({
  format: z.literal(CANVAS_FORMAT),
  version: z.literal(CANVAS_VERSION),
  canvas: CanvasMetaSchema,
  nodes: z.array(CanvasNodeSchema),
  wires: z.array(WireSchema),
  attachments: z.array(AttachmentSchema),
  dismissals: z.array(StaleDismissalSchema),
  ledgers: z.array(MirrorLedgerSchema),
  /** Read with or without the `prevHash` a stored event may leave out (version 3); parsed, every event has it. */
  events: z.array(StoredEventSchema).transform(chainedEvents),
});
export type CanvasDocument = z.infer<typeof CanvasRecordsSchema>;
