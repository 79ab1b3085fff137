import { z } from 'zod';

/** What one pass over the archive found (`weft archive verify`, Settings → Session archive → Verify). */
export const ArchiveVerificationSchema = z.object({
  copies: z.number(),
  /** Bytes of the session files the copies hold, as re-read. */
  bytes: z.number(),
  /** Copies kept before Weft hashed copies: their sizes check, their bytes cannot be proven. */
  unverified: z.number(),
  bad: z.number(),
  firstBad: z.object({ path: z.string(), runner: z.string(), reason: z.string() }).nullable(),
  verifiedAt: z.number(),
});
export type ArchiveVerificationResult = z.infer<typeof ArchiveVerificationSchema>;

/** `GET /api/session-archive` and `POST /api/session-archive/verify`: the archive's health. */
export const SessionArchiveHealthSchema = z.object({
  directory: z.string(),
  copies: z.number(),
  /** Bytes of the session files kept, and of their gzip copies. */
  bytes: z.number(),
  compressedBytes: z.number(),
  /** Copies whose entry has no SHA-256 yet (hashed when next copied). */
  unhashed: z.number(),
  lastVerification: ArchiveVerificationSchema.nullable(),
});
export type SessionArchiveHealth = z.infer<typeof SessionArchiveHealthSchema>;
