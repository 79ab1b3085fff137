import { z } from 'zod';

/**
 * C35: tools the chat model may call. A tool is off unless the person switches it on for a question node;
 * its declaration (name, description, input schema) travels in the canonical request, so the request hash
 * covers exactly what the model was offered. Each call and its bounded result are recorded on the version.
 */
export const ChatToolIdSchema = z.enum(['scholarly-search', 'arxiv-search', 'semantic-scholar-search', 'web-search']);
export type ChatToolId = z.infer<typeof ChatToolIdSchema>;

/** What a model is offered for one tool: the same bytes the request hash covers. */
export const ToolDeclarationSchema = z.object({
  name: z.string().min(1).max(64),
  description: z.string().max(2000),
  inputSchema: z.record(z.string(), z.unknown()),
});
export type ToolDeclaration = z.infer<typeof ToolDeclarationSchema>;

/** A tool's input as recorded (JSON text) and its result as given back to the model, both bounded. */
export const TOOL_INPUT_MAX_CHARS = 2_000;
export const TOOL_OUTPUT_MAX_CHARS = 8_000;
/** Model turns in one ask, tool rounds included: a model that keeps calling tools is stopped here. */
export const TOOL_STEP_LIMIT = 4;
/** Tool calls one version keeps (a model may call several tools per turn). */
export const TOOL_CALLS_MAX = 64;

export const ToolCallStatusSchema = z.enum(['ok', 'error']);

/** One tool call on a version: what the model asked for and what it was given back. */
export const ToolCallRecordSchema = z.object({
  callId: z.string().min(1).max(200),
  tool: z.string().min(1).max(64),
  input: z.string().max(TOOL_INPUT_MAX_CHARS + 200),
  output: z.string().max(TOOL_OUTPUT_MAX_CHARS + 200),
  status: ToolCallStatusSchema,
  /** The coded reason of a failed call (e.g. `url-refused`, `tool-not-declared`); null when it worked. */
  code: z.string().max(64).nullable(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

/** `/api/generate`: the model called a tool (input already bounded). */
export const ToolCallStartedEventSchema = z.object({
  type: z.literal('tool-call-started'),
  callId: ToolCallRecordSchema.shape.callId,
  tool: ToolCallRecordSchema.shape.tool,
  input: ToolCallRecordSchema.shape.input,
});
/** `/api/generate`: a tool call ended; the same record the version keeps. */
export const ToolCallFinishedEventSchema = ToolCallRecordSchema.extend({ type: z.literal('tool-call-finished') });
export type ToolCallStartedEvent = z.infer<typeof ToolCallStartedEventSchema>;
export type ToolCallFinishedEvent = z.infer<typeof ToolCallFinishedEventSchema>;
