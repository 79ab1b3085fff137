import { z } from 'zod';

/**
 * Issue 32.4, Settings → Team index: a team's why index on PostgreSQL. Its connection string is a secret, kept
 * with the provider keys (never returned, exported or logged): the renderer sees only `location`, the server as
 * `postgres://host:port/database`, without user or password.
 */
export const TEAM_INDEX_KEY_ID = 'team-index:postgres';

/** `GET /api/team-index`. */
export const TeamIndexSettingsSchema = z.object({
  configured: z.boolean(),
  location: z.string().nullable(),
});
export type TeamIndexSettings = z.infer<typeof TeamIndexSettingsSchema>;

/** `PUT /api/team-index`: a new connection string, or null to forget it. */
export const TeamIndexUpdateSchema = z.object({
  url: z
    .string()
    .max(2000)
    .regex(/^postgres(ql)?:\/\//i, 'A team index is a postgres:// (or postgresql://) connection string.')
    .nullable(),
});
export type TeamIndexUpdate = z.infer<typeof TeamIndexUpdateSchema>;

export const TeamMachineSchema = z.object({
  machine: z.string(),
  /** Its name and person as it pushed them (the `machines` table); absent for rows copied before machines were kept. */
  name: z.string().optional(),
  person: z.string().optional(),
  sources: z.number().int(),
  /** Its last push (epoch ms). */
  lastPushAt: z.number().nullable(),
});
export type TeamMachine = z.infer<typeof TeamMachineSchema>;

/** `POST /api/team-index/test`: connects with the stored string and says what this person's role can read. */
export const TeamIndexCheckSchema = z.object({
  ok: z.boolean(),
  location: z.string().nullable(),
  /** Why it failed (the server's reason, never the connection string). */
  message: z.string().nullable(),
  /** Schema versions applied on the server (weft_schema_migrations). */
  schemaVersions: z.array(z.number().int()),
  sessions: z.number().int(),
  turns: z.number().int(),
  /** Machines seen and each one's last push; null when the database records no machine per row. */
  machines: z.array(TeamMachineSchema).nullable(),
});
export type TeamIndexCheck = z.infer<typeof TeamIndexCheckSchema>;
