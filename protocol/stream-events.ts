import { z } from 'zod';
import { ImportProgressEventSchema } from './import-api.ts';
import { ToolCallFinishedEventSchema, ToolCallStartedEventSchema } from './chat-tools.ts';
import {
  AgentApprovalDecidedEventSchema,
  AgentApprovalRequestedEventSchema,
  AgentFailedEventSchema,
  AgentFinishedEventSchema,
  AgentFootprintEventSchema,
  AgentSessionEventSchema,
  AgentStartedEventSchema,
  AgentToolStartedEventSchema,
  AgentPromptDeliveredEventSchema,
} from './agent-lane.ts';

/**
 * Server → UI stream events (one JSON object per SSE `data:` line), named `<noun>-<action>`.
 * `/api/generate` emits request-accepted (the commit: the model is resolved and its call starts), then
 * text-deltas, then exactly one of answer-finished / answer-failed. A request refused before any model
 * call (hash mismatch, unknown model, missing key) gets answer-failed alone. `/api/stream` pushes canvas-changed, mirror-appended and others.
 */
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const GenerateFailureCodeSchema = z.enum([
  'bad-key',
  'rate-limit',
  'model-missing',
  'network',
  'context-too-long',
  'hash-mismatch',
  'provider-error',
  'aborted',
  /** C35: the request switched on a tool this server does not have, or declared one differently. */
  'tool-refused',
  /** C35: an MCP tool's server lists it differently now (or not at all), or left mcp.json, or mcp.json is broken. */
  'mcp-tool-changed',
  'mcp-server-unknown',
  'mcp-config-invalid',
  /** Issue 27.3: the stored canvas holds the node a request names as something other than a question. */
  'dispatch-target-mismatch',
  /** Issue 31: the client's context hash (messages and tools alone) is not the server's: nothing was sent. */
  'context-hash-mismatch',
  /** Issue 31: a set's call the server refuses whole (an agent lane in it, or over the per-ask cap): nothing was sent. */
  'model-set-refused',
]);
export type GenerateFailureCode = z.infer<typeof GenerateFailureCodeSchema>;

export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative().nullable(),
  outputTokens: z.number().int().nonnegative().nullable(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** The server's own hash of the request it hands to the provider (C9 double entry). */
export const RequestAcceptedEventSchema = z.object({
  type: z.literal('request-accepted'),
  requestHash: Sha256,
  /** Issue 31: the server's context hash of the same request, sent when the client sent one (a model set's ask). */
  contextHash: Sha256.optional(),
});
export const TextDeltaEventSchema = z.object({ type: z.literal('text-delta'), delta: z.string() });
export const AnswerFinishedEventSchema = z.object({
  type: z.literal('answer-finished'),
  finishReason: z.string(),
  usage: UsageSchema.nullable(),
});
export const AnswerFailedEventSchema = z.object({
  type: z.literal('answer-failed'),
  code: GenerateFailureCodeSchema,
  message: z.string(),
});
/** `revision` (the record's new revision) lets a page tell its own save's echo from someone else's write. */
export const CanvasChangedEventSchema = z.object({
  type: z.literal('canvas-changed'),
  id: z.string(),
  revision: z.string().optional(),
});
export const CanvasDeletedEventSchema = z.object({ type: z.literal('canvas-deleted'), id: z.string() });
/** A mirrored agent turn appeared in a followed session (payload kept light: ids only). */
export const MirrorAppendedEventSchema = z.object({
  type: z.literal('mirror-appended'),
  runner: z.string(),
  sessionId: z.string(),
  turnKey: z.string(),
});
/** A followed session's file grew (debounced); the UI re-fetches it and re-plans its mirror from the ledger. */
export const SessionGrewEventSchema = z.object({
  type: z.literal('session-grew'),
  runner: z.string(),
  sessionId: z.string(),
  turns: z.number().int().nonnegative(),
});
export const SettingsChangedEventSchema = z.object({ type: z.literal('settings-changed') });
/** The memory profile or its activity changed (another tab, the judge, an undo): the UI re-reads `/api/memory`. */
export const MemoryChangedEventSchema = z.object({ type: z.literal('memory-changed'), revision: z.string() });

export const StreamEventSchema = z.discriminatedUnion('type', [
  RequestAcceptedEventSchema,
  TextDeltaEventSchema,
  AnswerFinishedEventSchema,
  AnswerFailedEventSchema,
  CanvasChangedEventSchema,
  CanvasDeletedEventSchema,
  MirrorAppendedEventSchema,
  SessionGrewEventSchema,
  SettingsChangedEventSchema,
  ImportProgressEventSchema,
  AgentStartedEventSchema,
  AgentPromptDeliveredEventSchema,
  AgentSessionEventSchema,
  AgentToolStartedEventSchema,
  AgentFootprintEventSchema,
  AgentApprovalRequestedEventSchema,
  AgentApprovalDecidedEventSchema,
  AgentFinishedEventSchema,
  AgentFailedEventSchema,
  MemoryChangedEventSchema,
  ToolCallStartedEventSchema,
  ToolCallFinishedEventSchema,
]);
export type StreamEvent = z.infer<typeof StreamEventSchema>;
export type RequestAcceptedEvent = z.infer<typeof RequestAcceptedEventSchema>;
export type TextDeltaEvent = z.infer<typeof TextDeltaEventSchema>;
export type AnswerFinishedEvent = z.infer<typeof AnswerFinishedEventSchema>;
export type AnswerFailedEvent = z.infer<typeof AnswerFailedEventSchema>;
export type CanvasChangedEvent = z.infer<typeof CanvasChangedEventSchema>;
export type MirrorAppendedEvent = z.infer<typeof MirrorAppendedEventSchema>;
export type SessionGrewEvent = z.infer<typeof SessionGrewEventSchema>;

/** Events that end a `/api/generate` stream. */
export function isTerminalGenerateEvent(
  event: StreamEvent,
): event is z.infer<typeof AnswerFinishedEventSchema> | z.infer<typeof AnswerFailedEventSchema> {
  return event.type === 'answer-finished' || event.type === 'answer-failed';
}
