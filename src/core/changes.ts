import type {
  AnswerCheck,
  Attachment,
  CheckOutcome,
  Highlight,
  HighlightMode,
  MaterialProvenance,
  MirrorLedger,
  MirrorNode,
  ModelSet,
  NoteAuthor,
  ChatToolId,
  QuestionAuthor,
  Passage,
  Plaque,
  RoleSetting,
  ToolDeclaration,
  MemoryReading,
  RecallSetting,
  Version,
} from '../../protocol/index.ts';
import type { EventRecord } from '../../protocol/index.ts';
import type { EventDraft } from './event-log.ts';
import type { Graph } from './graph.ts';
import type { HashPort } from './hash-port.ts';

/** Time, ids and hashing are parameters: the core never reads a clock or a random source. */
export interface ChangeContext {
  now: number;
  newId: () => string;
  /** SHA-256 for the event chain; the JavaScript port when absent. */
  hash?: HashPort;
  /**
   * The graph's maps and log belong to the caller alone (a replay's scratch copy, `rebaseSteps`): they are changed
   * in place instead of copied, so a long replay onto a large canvas does not copy it once per change. After a
   * refusal the caller restores them itself.
   */
  inPlace?: boolean;
}

export interface Position {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

interface DraftBase {
  /** Taken from `context.newId()` when absent. */
  id?: string;
  position?: Position;
  size?: Size | null;
}

/** What a caller supplies to add a node; the core fills id, createdAt and defaults. */
export type NodeDraft =
  | (DraftBase & {
      kind: 'question';
      question: string;
      model?: string | null;
      attachments?: string[];
      autoRerun?: { enabled: boolean; rounds: number };
      role?: RoleSetting;
      passage?: Passage;
      /** Absent: the person (C14); `model` or `app` when the app writes the text. */
      questionAuthor?: QuestionAuthor;
    })
  | (DraftBase & { kind: 'note'; text: string; /** Absent: the person (C14). */ author?: NoteAuthor })
  | (DraftBase & { kind: 'material'; title: string; text: string; provenance: MaterialProvenance })
  | (DraftBase & { kind: 'frame'; label: string })
  | (DraftBase & {
      kind: 'mirror';
      source: MirrorNode['source'];
      /** Editable copy; defaults to the source's question and answer. */
      question?: string;
      answer?: string;
      includeExecution?: boolean;
    });

/** Editable fields; each must exist on the node's kind or the change is refused (`invalid`). */
export interface NodePatch {
  question?: string;
  text?: string;
  title?: string;
  label?: string;
  answer?: string;
  includeExecution?: boolean;
  model?: string | null;
  attachments?: string[];
  role?: RoleSetting;
  rolePick?: string | null;
  highlights?: Highlight[];
  highlightMode?: HighlightMode;
  includeFootprints?: boolean;
  /** C24: folders this node's agent turns may reach besides the working directory. */
  agentGrants?: string[];
  /** C35: the tools this question's model may call. */
  tools?: ChatToolId[];
  /** C35: the MCP tools this question's model may call, as declared when switched on. */
  mcpTools?: ToolDeclaration[];
  /** C16: recall into this question's asks (off when absent). */
  recall?: RecallSetting;
  /** #29: how this question's asks read memory (inferred items, an "as of" date); defaults when absent. */
  memoryReading?: MemoryReading;
  /** Issue 31: the models "Ask several…" asks together. */
  modelSet?: ModelSet;
  /** Issue 31: the checks that score every version (never in a request or a fingerprint). */
  checks?: AnswerCheck[];
}

/** A version as the caller records it; id and createdAt default from the context. */
export type VersionDraft = Omit<Version, 'id' | 'createdAt'> & { id?: string; createdAt?: number };

/** `mention`: the wire is an @-mention in the target's question (C31); set by the core, kept across a depth change. */
export type WireSpec = { kind: 'solid' } | { kind: 'dashed'; depth: 'quote' | 'full'; mention?: boolean };

/** Every graph change, one apply path (`applyChange`). */
export type GraphChange =
  | { type: 'add-node'; node: NodeDraft }
  | { type: 'edit-node'; nodeId: string; patch: NodePatch }
  | { type: 'delete-node'; nodeId: string }
  | { type: 'move-node'; nodeId: string; position: Position; size?: Size | null }
  | { type: 'add-version'; nodeId: string; version: VersionDraft; select?: boolean }
  | { type: 'select-version'; nodeId: string; versionId: string }
  | ({ type: 'wire'; id?: string; from: string; to: string } & WireSpec)
  | { type: 'unwire'; wireId: string }
  /** C31: rewrites the question's mentions of `mentionedId` to that node's title of now (after a rename). */
  | { type: 'update-mention'; nodeId: string; mentionedId: string }
  | ({ type: 'set-wire-kind'; wireId: string } & WireSpec)
  | { type: 'archive'; nodeId: string }
  | { type: 'unarchive'; nodeId: string }
  | { type: 'set-auto-rerun'; nodeId: string; enabled: boolean; rounds?: number }
  | { type: 'exclude-part'; nodeId: string; partId: string }
  | { type: 'include-part'; nodeId: string; partId: string }
  | {
      type: 'import-material';
      material: Extract<NodeDraft, { kind: 'material' }>;
      attachments?: Attachment[];
    }
  | { type: 'add-attachment'; attachment: Attachment }
  | {
      type: 'set-dismissal';
      nodeId: string;
      fingerprint: string;
      probability: number;
      reason: string;
    }
  | { type: 'overrule-dismissal'; nodeId: string; fingerprint: string; overruled: boolean }
  | { type: 'set-ledger'; ledger: MirrorLedger }
  | { type: 'rename-canvas'; name: string }
  /** C24: the folder agent turns run in and the canvas's guard. */
  | {
      type: 'set-agent-settings';
      workingDirectory: string | null;
      guard: 'ask' | 'auto-review' | 'allow';
      /** Codex's sandbox network; absent keeps the canvas's setting (off unless switched on). */
      network?: boolean;
    }
  /** C35: the canvas-wide tools switch; a question's tools are offered only while it is on. */
  | { type: 'set-canvas-tools'; allowed: boolean }
  /** Appends a decision event that changes no record (commit, recall, profile write…). */
  | { type: 'record'; event: EventDraft }
  /** C32: a version's display-only plaque; touches nothing. */
  | { type: 'set-plaque'; nodeId: string; versionId: string; plaque: Plaque | null }
  /** Issue 31: a rubric's verdict on one version; the reason kept with the version, the event metadata only. */
  | {
      type: 'record-rubric';
      nodeId: string;
      versionId: string;
      checkId: string;
      /** The rubric's wording as the judge read it. */
      rubric: string;
      outcome: CheckOutcome;
      reason: string;
      /** The judge and the hash of the request it was sent; null when no judge answered. */
      judged: { model: string; requestHash: string } | null;
    }
  /** Applied atomically: all or nothing, events in order. */
  | { type: 'batch'; changes: GraphChange[] };

export type GraphChangeType = GraphChange['type'];

export interface ApplyOutcome {
  graph: Graph;
  /** Events appended to `graph.events` by this change (already hash-chained). */
  events: EventRecord[];
  /** Ids of nodes this change created (add-node, import-material, wire ids are not here). */
  created: string[];
  /**
   * Nodes whose compiled context or own answer may differ now: edited, versioned, archived,
   * deleted, re-wired at their input, excluded parts. Feed them to `StaleTracker.update`.
   */
  touched: string[];
}
