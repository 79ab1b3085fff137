import { z } from 'zod';

/**
 * The agent lane (C24) on the wire: a turn handed to Pi or Codex, the approval cards it raises, and the events
 * that stream back onto the node. The text is exactly what the runtime receives; `receivedHash` is its SHA-256.
 */
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const AgentRuntimeSchema = z.enum(['pi', 'codex']);
export const GuardModeSchema = z.enum(['ask', 'auto-review', 'allow']);
export const ApprovalDecisionSchema = z.enum(['allow-once', 'allow-turn', 'deny']);
export type GuardModeValue = z.infer<typeof GuardModeSchema>;

export const AgentTurnRequestSchema = z.object({
  runtime: AgentRuntimeSchema,
  /** Where no sandbox runs, the turn needs the person's consent for this canvas, recorded by the server. */
  canvasId: z.string().min(1).max(200).optional(),
  nodeId: z.string().min(1).max(200),
  cwd: z.string().min(1).max(4096),
  guardMode: GuardModeSchema,
  text: z.string().min(1).max(4_000_000),
  receivedHash: Sha256,
  /** The runtime's own model name (Pi `provider/id`, Codex model id); the runtime's default when absent. */
  model: z.string().min(1).max(300).optional(),
  /** Continue the node's session, or fork a parent's (Pi: session file; Codex: thread id). */
  session: z
    .union([z.object({ continue: z.string().min(1).max(4096) }), z.object({ fork: z.string().min(1).max(4096) })])
    .optional(),
  networkAccess: z.boolean().default(false),
  /** The node's materials, copied as files into `<cwd>/.weft/materials/<node>/` before the runtime starts. */
  materials: z
    .array(z.object({ fileName: z.string().min(1).max(80), text: z.string().max(2_000_000) }))
    .max(200)
    .default([]),
});
export type AgentTurnRequest = z.infer<typeof AgentTurnRequestSchema>;

/** A working directory to check before it is saved on the canvas (`POST /api/agents/folder`). */
export const AgentFolderCheckSchema = z.object({ path: z.string().min(1).max(4096) });

/** The person agrees that this canvas's agent turns run unconfined (`POST /api/agents/unconfined-consent`). */
export const AgentUnconfinedConsentSchema = z.object({ canvasId: z.string().min(1).max(200) });

export const AgentApprovalAnswerSchema = z.object({ decision: ApprovalDecisionSchema });

export const ApprovalRequestSchema = z.object({
  requestId: z.string(),
  toolCallId: z.string().nullable(),
  toolName: z.string(),
  args: z.unknown(),
  leaves: z.string().nullable(),
  reason: z.string(),
});

export type ApprovalRequestValue = z.infer<typeof ApprovalRequestSchema>;

/**
 * The footprint that is not a tool call: the files the turn's shell commands changed, found by comparing the
 * working directory before and after the turn (`git status`, or a bounded scan outside a repository).
 */
export const WORKSPACE_CHANGES_TOOL = 'weft:workspace-changes';

export const FootprintSchema = z.object({
  toolCallId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
  files: z.array(
    z.object({
      path: z.string(),
      op: z.enum(['read', 'write', 'edit', 'add', 'delete', 'update', 'created', 'modified', 'deleted']),
      /** Found by comparing the working directory before and after the turn (a shell command's writes). */
      by: z.literal('shell').optional(),
    }),
  ),
  exitCode: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type FootprintValue = z.infer<typeof FootprintSchema>;

export const AgentStartedEventSchema = z.object({
  type: z.literal('agent-started'),
  turnId: z.string(),
  receivedHash: Sha256,
});
/** The runtime's stdin took the prompt: the turn's commit is written on this, not on `agent-started`. */
export const AgentPromptDeliveredEventSchema = z.object({
  type: z.literal('agent-prompt-delivered'),
  receivedHash: Sha256,
});
export const AgentSessionEventSchema = z.object({
  type: z.literal('agent-session'),
  sessionId: z.string(),
  sessionFile: z.string().nullable(),
});
export const AgentToolStartedEventSchema = z.object({
  type: z.literal('agent-tool-started'),
  toolCallId: z.string(),
  toolName: z.string(),
});
export const AgentFootprintEventSchema = z.object({ type: z.literal('agent-footprint'), footprint: FootprintSchema });
export const AgentApprovalRequestedEventSchema = z.object({
  type: z.literal('agent-approval-requested'),
  turnId: z.string(),
  request: ApprovalRequestSchema,
});
export const AgentApprovalDecidedEventSchema = z.object({
  type: z.literal('agent-approval-decided'),
  requestId: z.string(),
  /** What was decided on, so a decision made without a card (judge, turn-allow) is still recorded whole. */
  toolName: z.string(),
  leaves: z.string().nullable(),
  decision: ApprovalDecisionSchema,
  by: z.enum(['person', 'judge', 'gate']),
});
export const AgentFinishedEventSchema = z.object({
  type: z.literal('agent-finished'),
  status: z.enum(['completed', 'aborted', 'failed']),
  text: z.string(),
  error: z.string().nullable(),
  changedFiles: z.array(z.string()),
});
export const AgentFailedEventSchema = z.object({
  type: z.literal('agent-failed'),
  code: z.string(),
  message: z.string(),
});

/** One decided card of an agent turn, kept on the version (the event log carries the decision too). */
export const ApprovalRecordSchema = z.object({
  requestId: z.string(),
  toolName: z.string(),
  leaves: z.string().nullable(),
  decision: ApprovalDecisionSchema,
  by: z.enum(['person', 'judge', 'gate']),
  at: z.number().int().nonnegative(),
});
export type ApprovalRecord = z.infer<typeof ApprovalRecordSchema>;

/**
 * What an agent turn leaves on its version: the session it ran in (for continue / fork and the Atlas), the hash
 * of the text the runtime received, its footprints (never in context) and the files it changed (one line
 * downstream).
 */
export const AgentVersionSchema = z.object({
  runtime: AgentRuntimeSchema,
  sessionId: z.string().nullable(),
  sessionFile: z.string().nullable(),
  receivedHash: Sha256,
  footprints: z.array(FootprintSchema),
  approvals: z.array(ApprovalRecordSchema),
  changedFiles: z.array(z.string()),
});
export type AgentVersion = z.infer<typeof AgentVersionSchema>;
