import { parentPort, workerData } from 'node:worker_threads';
import { Fence, readSessionFile } from '../atlas/index.ts';
import { indexedSessionFromAtlas } from './session-rows.ts';

/**
 * A worker of the read pool: parses session files through the atlas (same fence, read-only) so that
 * parsing runs beside the main thread's SQLite writes on another core.
 */
interface ReadRequest {
  id: number;
  path: string;
  resume: { fromOffset: number; state: string } | null;
}

const fence = new Fence((workerData as { roots: string[] }).roots);

parentPort!.on('message', async (request: ReadRequest) => {
  try {
    const read = await readSessionFile(request.path, {
      fence,
      ...(request.resume ? { fromOffset: request.resume.fromOffset, state: request.resume.state } : {}),
    });
    parentPort!.postMessage({
      id: request.id,
      result: {
        runner: read.runner,
        sessions: read.sessions.map(indexedSessionFromAtlas),
        report: read.report,
        bytesConsumed: read.bytesConsumed,
        size: read.size,
        mtimeMs: read.mtimeMs,
        state: read.state,
        prefixHash: read.prefixHash,
        resumed: read.resumed,
      },
    });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: { message: (error as Error).message, code: (error as { code?: string }).code } });
  }
});
