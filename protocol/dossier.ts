import { z } from 'zod';

/**
 * A topic's dossier (C15): four sections, every sentence citing the stable turn keys it rests on. Shared by the
 * dossier store (runtime/dossiers), recall into an ask (C16), the CLI, MCP and the memory page.
 */
export const DOSSIER_SECTIONS = ['what', 'decisions', 'status', 'open'] as const;
export type DossierSectionName = (typeof DOSSIER_SECTIONS)[number];

export const DossierSentenceSchema = z.object({
  /** Stable for the sentence's life across updates (never a position). */
  id: z.string().min(1).max(100),
  text: z.string().min(1).max(2000),
  /** Turn keys (`<runner>:<session>#<turn>` or `canvas:<canvas>#<node>@<version>`) the sentence rests on. */
  citations: z.array(z.string().min(1).max(1000)).min(1),
});
export type DossierSentence = z.infer<typeof DossierSentenceSchema>;

export const DossierSchema = z.object({
  format: z.literal('weft.dossier'),
  topicId: z.string().min(1).max(100),
  /** Increases by one on every write; earlier versions are kept as history. */
  version: z.number().int().min(1),
  writtenAt: z.number().int(),
  sections: z.object({
    what: z.array(DossierSentenceSchema),
    decisions: z.array(DossierSentenceSchema),
    status: z.array(DossierSentenceSchema),
    open: z.array(DossierSentenceSchema),
  }),
});
export type Dossier = z.infer<typeof DossierSchema>;
