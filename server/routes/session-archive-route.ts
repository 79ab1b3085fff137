import express, { type Router } from 'express';
import type { SessionArchiveHealth } from '../../protocol/index.ts';
import {
  readLastVerification,
  SessionArchive,
  verifyArchive,
  type ArchiveVerification,
} from '../../runtime/index/index.ts';
import type { ServerContext } from '../server-context.ts';

/**
 * `GET /api/session-archive`: the archive's health for Settings (copies, bytes, copies without a hash, the last
 * verification). `POST /api/session-archive/verify`: re-reads every copy now (`verifyArchive`, as
 * `weft archive verify` does) and answers the health with that result. Verifications asked for while one runs
 * share it. Only reads the archive; the copies themselves are made by the index.
 */
export function sessionArchiveRoute(context: ServerContext): Router {
  const router = express.Router();
  // No roots: this archive object only reads (entries and sizes), it never copies.
  const archive = () => new SessionArchive(context.home, [], Date.now);
  let running: Promise<ArchiveVerification> | null = null;

  const health = (): SessionArchiveHealth => {
    const kept = archive();
    const usage = kept.usage();
    return {
      directory: kept.directory,
      copies: usage.sessions,
      bytes: usage.sourceBytes,
      compressedBytes: usage.bytes,
      unhashed: usage.unhashed,
      lastVerification: readLastVerification(kept.directory),
    };
  };

  router.get('/session-archive', (_request, response) => {
    response.json(health());
  });

  router.post('/session-archive/verify', async (_request, response) => {
    running ??= verifyArchive(archive().directory).finally(() => (running = null));
    const result = await running;
    context.logger.info('session archive verified', { copies: result.copies, bad: result.bad });
    response.json(health());
  });
  return router;
}
