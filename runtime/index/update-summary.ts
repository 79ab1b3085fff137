/** What an update reports while it runs and when it is done (shared by the reads and the orchestration). */
export interface IndexProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface UpdateSummary {
  /** Files seen by the stat pass (sessions, memory files, canvas records). */
  files: number;
  /** Files read now, in full. */
  fullReads: number;
  /** Files that grew and were read from where reading had stopped. */
  appendReads: number;
  /** Files whose rows went because the file vanished (and no copy of it was kept). */
  removed: number;
  /** Session files found gone whose rows stay, read from the archive ("source deleted"). */
  sourceDeleted: number;
  /** Session files copied (or appended to) in the archive. */
  archived: number;
  /** Files that could not be read (their previous rows, if any, are kept). */
  failed: { path: string; reason: string }[];
  bytesRead: number;
  turnsWritten: number;
  durationMs: number;
}
