import { z } from 'zod';
import { CanonicalRequestSchema } from './dispatch-request.ts';
import { GenerateImageSchema } from './http-api.ts';

const Id = z.string().min(1).max(200);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** A question of the side chat about a canvas (C17): long enough for a paragraph, short enough to stay a question. */
export const ASK_CANVAS_QUESTION_MAX = 20_000;

/**
 * Which nodes went out in which layer of one ask (C17). `outline` is the numbering itself: node number N is
 * `outline[N - 1]`, so a citation in that turn's answer resolves through its own turn even after the canvas moved on.
 */
export const AskCanvasLayersSchema = z.object({
  outline: z.array(Id),
  chain: z.array(Id),
  materials: z.array(Id),
  references: z.array(Id),
});
export type AskCanvasLayers = z.infer<typeof AskCanvasLayersSchema>;

/** One turn of the side chat as the server recorded it after streaming the answer. */
export const AskCanvasTurnSchema = z.object({
  id: Id,
  askedAt: z.number().int().nonnegative(),
  question: z.string().max(ASK_CANVAS_QUESTION_MAX),
  answer: z.string(),
  status: z.enum(['complete', 'failed', 'aborted']),
  /** The failure's code when `status` is `failed` (never its message: it may quote the provider). */
  code: z.string().max(100).nullable(),
  model: z.string().min(1),
  /** SHA-256 of the canonical request the server handed the model (C9). */
  requestHash: Sha256,
  focusId: Id.nullable(),
  layers: AskCanvasLayersSchema,
});
export type AskCanvasTurn = z.infer<typeof AskCanvasTurnSchema>;

export const CANVAS_CHAT_FORMAT = 'weft.canvas-chat';
export const CANVAS_CHAT_VERSION = 1;

/** The stored chat of one canvas (`$WEFT_HOME/canvas-chats/<canvas id>.chat.json`), beside its canvas record. */
export const CanvasChatSchema = z.object({
  format: z.literal(CANVAS_CHAT_FORMAT),
  version: z.literal(CANVAS_CHAT_VERSION),
  canvasId: Id,
  turns: z.array(AskCanvasTurnSchema),
});
export type CanvasChat = z.infer<typeof CanvasChatSchema>;

/** `POST /api/ask-canvas/:canvasId`: the assembled request, its client hash and what it carries. */
export const AskCanvasRequestSchema = z.object({
  turnId: Id,
  question: z.string().min(1).max(ASK_CANVAS_QUESTION_MAX),
  focusId: Id.nullable(),
  layers: AskCanvasLayersSchema,
  request: CanonicalRequestSchema,
  requestHash: Sha256,
  images: z.array(GenerateImageSchema),
});
export type AskCanvasRequest = z.infer<typeof AskCanvasRequestSchema>;

/** `GET /api/ask-canvas/:canvasId`: the stored turns, oldest first. */
export const CanvasChatResponseSchema = z.object({ canvasId: Id, turns: z.array(AskCanvasTurnSchema) });
export type CanvasChatResponse = z.infer<typeof CanvasChatResponseSchema>;
