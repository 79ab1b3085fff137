import { z } from 'zod';
import { DossierSchema } from './dossier.ts';
import { KnownAsSchema } from './memory-reading.ts';

/**
 * A project fact from the memory judge (C14) waiting for a dossier (C15): filed to a topic its exchange's turn is
 * labelled with, or to the general inbox (`topicId` null) when no topic claims it.
 */
export const PendingFactSchema = z.object({
  id: z.string().min(1),
  topicId: z.string().nullable(),
  text: z.string().min(1).max(2000),
  /** The stable key of the turn the fact was said in (`canvas:<canvas>#<node>@<version>`). */
  turnKey: z.string().nullable(),
  filedAt: z.number().int(),
});
export type PendingFact = z.infer<typeof PendingFactSchema>;

export const DossierModeSchema = z.enum(['update', 'rebuild']);
export type DossierMode = z.infer<typeof DossierModeSchema>;

/** What a build / update / rebuild would send, shown before it runs. */
export const DossierPlanSchema = z.object({
  topicId: z.string(),
  mode: DossierModeSchema,
  /** The turns it reads (unread ones for an update, every labelled one for a rebuild), by stable key. */
  turns: z.array(
    z.object({ turnKey: z.string(), source: z.enum(['session', 'canvas']), title: z.string(), chars: z.number() }),
  ),
  facts: z.array(PendingFactSchema),
  /** Labelled turns left out because the run takes at most `DOSSIER_MAX_TURNS`. */
  turnsLeftOut: z.number().int(),
  inputTokens: z.number().int(),
  /** Input price in dollars; null when the model's price is unknown. */
  price: z.number().nullable(),
  modelId: z.string().nullable(),
  /** Exactly what leaves the machine: the system text and the prompt. */
  outgoing: z.object({ system: z.string(), prompt: z.string() }),
});
export type DossierPlan = z.infer<typeof DossierPlanSchema>;

/** The person confirms a plan: the run reads only these turns and facts (a fact filed since waits). */
export const DossierBuildRequestSchema = z.strictObject({
  mode: DossierModeSchema,
  modelId: z.string().min(1).max(200).optional(),
  turnKeys: z.array(z.string().min(1).max(1000)).max(1000),
  factIds: z.array(z.string().min(1).max(100)).max(1000),
});
export type DossierBuildRequest = z.infer<typeof DossierBuildRequestSchema>;

/** A sentence the model wrote but that was dropped: it cited a key it was not shown. */
export const DroppedSentenceSchema = z.object({
  section: z.string(),
  text: z.string(),
  unknownKeys: z.array(z.string()),
});
export type DroppedSentence = z.infer<typeof DroppedSentenceSchema>;

export const DossierVersionSummarySchema = z.object({
  version: z.number().int(),
  writtenAt: z.number().int(),
  mode: DossierModeSchema,
  modelId: z.string().nullable(),
  sentences: z.number().int(),
  dropped: z.number().int(),
  turnsRead: z.number().int(),
  factsRead: z.number().int(),
});
export type DossierVersionSummary = z.infer<typeof DossierVersionSummarySchema>;

/** One topic's dossier as the memory page shows it. */
export const DossierViewSchema = z.object({
  topicId: z.string(),
  dossier: DossierSchema.nullable(),
  /** Sentences whose every source is archived or deleted: marked in the view, left out of recall. */
  retired: z.array(z.string()),
  /** How many sentences the person struck (issue 29.2): left out of `dossier`, listed under Memory → Put aside. */
  struck: z.number().int().nonnegative(),
  /** The sentences the latest write dropped for citing keys the model was not shown. */
  dropped: z.array(DroppedSentenceSchema),
  history: z.array(DossierVersionSummarySchema),
  /**
   * #29.4: when each sentence of `dossier` holds, by sentence id (core `sentenceValidity`): from the `writtenAt` of
   * the first version that said its words to that of the version that dropped or reworded them (null: still holds).
   */
  validity: z.record(z.string(), z.object({ from: z.number().int(), to: z.number().int().nullable() })),
  /** #29: the cited turns not read as written, by turn key (`reconstructed`: an interrupted session turn). */
  citationKnownAs: z.record(z.string(), KnownAsSchema),
  pendingFacts: z.array(PendingFactSchema),
  unreadTurns: z.number().int(),
});
export type DossierView = z.infer<typeof DossierViewSchema>;

export const DossierListSchema = z.object({
  dossiers: z.array(
    z.object({ topicId: z.string(), name: z.string(), version: z.number().int().nullable(), pending: z.number() }),
  ),
  inbox: z.array(PendingFactSchema),
});
export type DossierList = z.infer<typeof DossierListSchema>;

export const InboxFileRequestSchema = z.strictObject({ topicId: z.string().min(1).max(100) });

const DossierAnswerSentenceSchema = z.object({
  id: z.string().min(1).max(100).optional(),
  text: z.string().trim().min(1).max(2000),
  citations: z.array(z.string().min(1).max(1000)).min(1).max(50),
});

/** The model's structured answer: the four sections, each a list of cited sentences. */
export const DossierAnswerSchema = z.object({
  what: z.array(DossierAnswerSentenceSchema).max(100),
  decisions: z.array(DossierAnswerSentenceSchema).max(100),
  status: z.array(DossierAnswerSentenceSchema).max(100),
  open: z.array(DossierAnswerSentenceSchema).max(100),
});
export type DossierAnswer = z.infer<typeof DossierAnswerSchema>;

/**
 * Issue 29.1: a sentence a dossier run wrote that is new to the dossier, waiting in the Inbox because
 * `memoryAutoAccept.dossierSentences` is off. It reaches no dossier, recall or request until accepted; a rejected
 * one is put aside (a `dossier-sentence` tombstone), so the same words never come back.
 */
export const DossierSentenceProposalSchema = z.object({
  id: z.string().min(1),
  topicId: z.string(),
  section: z.enum(['what', 'decisions', 'status', 'open']),
  text: z.string().min(1).max(2000),
  /** The turn keys it cites: its evidence, one click each to the turn. */
  citations: z.array(z.string()),
  proposedAt: z.number().int(),
});
export type DossierSentenceProposal = z.infer<typeof DossierSentenceProposalSchema>;

/**
 * `GET /api/dossier-sentences?cursor&limit`: one page of the pending ones, newest first (`nextCursor`: the id of the
 * page's last one, null on the last page), how many wait in all, their topics' names by id (a topic deleted since
 * is absent), and whether new sentences skip the Inbox.
 */
export const DossierSentenceInboxSchema = z.object({
  proposals: z.array(DossierSentenceProposalSchema),
  topicNames: z.record(z.string(), z.string()),
  nextCursor: z.string().nullable(),
  total: z.number().int().nonnegative(),
  autoAccept: z.boolean(),
});
export type DossierSentenceInbox = z.infer<typeof DossierSentenceInboxSchema>;
