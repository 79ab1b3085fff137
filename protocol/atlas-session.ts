import { z } from 'zod';

/**
 * Canonical sessions and turns that every runner adapter produces (C19) and the why index stores.
 * Turn keys are stable ids: `<runner>:<sessionId>#<id of the record that opened the turn>`.
 */
export const RunnerSchema = z.enum(['claude-code', 'codex', 'pi']);
export type Runner = z.infer<typeof RunnerSchema>;

export const ToolOpSchema = z.enum(['read', 'write', 'edit', 'delete', 'run', 'search', 'fetch', 'agent', 'other']);
export type ToolOp = z.infer<typeof ToolOpSchema>;

export const ToolStepSchema = z.object({
  /** The tool-call id the runner recorded, when it has one. */
  callId: z.string().nullable(),
  name: z.string(),
  inputSummary: z.string(),
  op: ToolOpSchema,
  /** Absolute paths, resolved against the session's working directory. */
  files: z.array(z.string()),
  resultSummary: z.string(),
  isError: z.boolean(),
  at: z.number().nullable(),
});
export type ToolStep = z.infer<typeof ToolStepSchema>;

export const TurnSchema = z.object({
  key: z.string(),
  /** 1-based number, for display only. */
  number: z.number().int().positive(),
  /** Id of the record that opened the turn. */
  openingRecordId: z.string(),
  userText: z.string(),
  assistantText: z.string(),
  steps: z.array(ToolStepSchema),
  urls: z.array(z.string()),
  arxivIds: z.array(z.string()),
  dois: z.array(z.string()),
  model: z.string().nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  /** True when a compaction boundary happened before this turn. */
  afterCompaction: z.boolean(),
  /** Session ids of subagent runs this turn delegated. */
  subagentSessionIds: z.array(z.string()),
  /** The working directory of the record that opened the turn, when known. */
  cwd: z.string().nullable().optional(),
  /** How the turn ended when the runner marked it (`interrupted`, `interrupted-tool-use`): never question text. */
  status: z.enum(['interrupted', 'interrupted-tool-use']).nullable().optional(),
  /**
   * Issue 29.2: the person put this turn's words aside (a mirror of it archived or deleted). The Atlas still shows
   * it, marked; mirroring and following leave it off the canvas. Set by the server when it reads the session.
   */
  putAside: z.boolean().optional(),
});
export type Turn = z.infer<typeof TurnSchema>;

export const SessionSchema = z.object({
  runner: RunnerSchema,
  sessionId: z.string(),
  /** Absolute path of the file read. */
  sourcePath: z.string(),
  title: z.string(),
  cwd: z.string().nullable(),
  gitBranch: z.string().nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  models: z.array(z.string()),
  /** For a subagent run or fork: the parent session and the turn key that delegated it. */
  parentSessionId: z.string().nullable(),
  parentTurnKey: z.string().nullable(),
  isSubagent: z.boolean(),
  turns: z.array(TurnSchema),
  compactions: z.array(
    z.object({ beforeTurnNumber: z.number().int(), at: z.number().nullable(), summary: z.string() }),
  ),
});
export type Session = z.infer<typeof SessionSchema>;

/** Every oddity met while reading is counted here; none is fatal. */
export const ParseReportSchema = z.object({
  lines: z.number().int(),
  records: z.number().int(),
  emptyLines: z.number().int(),
  invalidJson: z.number().int(),
  gluedObjects: z.number().int(),
  truncatedLastLine: z.number().int(),
  invalidUtf8: z.number().int(),
  oversizedLines: z.number().int(),
  unknownRecordTypes: z.record(z.string(), z.number().int()),
  wrongShape: z.number().int(),
});
export type ParseReport = z.infer<typeof ParseReportSchema>;
