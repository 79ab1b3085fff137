import { z } from 'zod';
import { EventRecordSchema } from './event-record.ts';
import { ChainVerdictSchema } from './chain-head.ts';

/** Memory's two hash-chained journals: the profile's (`memory/journal.json`) and the topics' (`topics-journal.json`). */
export const MemoryJournalNameSchema = z.enum(['profile', 'topics']);
export type MemoryJournalName = z.infer<typeof MemoryJournalNameSchema>;

/** What a journal entry decided, derived from its op and meta (core `journalVerdictOf`); the filter of the page. */
export const MemoryJournalVerdictSchema = z.enum([
  'proposed',
  'admitted',
  'refused',
  'superseded',
  'undone',
  'deleted',
  'edited',
  'labelled',
  'setting',
]);
export type MemoryJournalVerdict = z.infer<typeof MemoryJournalVerdictSchema>;

/** One event of one journal; `index` is its 0-based place in that journal's chain. */
export const MemoryJournalEntrySchema = z.object({
  journal: MemoryJournalNameSchema,
  index: z.number().int().nonnegative(),
  verdict: MemoryJournalVerdictSchema,
  event: EventRecordSchema,
});
export type MemoryJournalEntry = z.infer<typeof MemoryJournalEntrySchema>;

/** `GET /api/memory/journal?cursor&limit&verdict&op`: newest first; `nextCursor` null on the last page. */
export const MemoryJournalPageSchema = z.object({
  entries: z.array(MemoryJournalEntrySchema),
  nextCursor: z.string().nullable(),
  /** Entries matching the filter across both journals. */
  total: z.number().int().nonnegative(),
});
export type MemoryJournalPage = z.infer<typeof MemoryJournalPageSchema>;

/** `GET /api/memory/journal/verify`: each journal's chain checked against the head kept beside it. */
export const MemoryJournalVerifySchema = z.object({
  intact: z.boolean(),
  journals: z.array(
    z.object({
      journal: MemoryJournalNameSchema,
      file: z.string(),
      verdict: ChainVerdictSchema,
      message: z.string(),
    }),
  ),
});
export type MemoryJournalVerify = z.infer<typeof MemoryJournalVerifySchema>;
