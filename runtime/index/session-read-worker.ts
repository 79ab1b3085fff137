import { parentPort, workerData } from 'node:worker_threads';
import { Fence, readSessionFile } from '../atlas/index.ts';
import { sessionFileReadFromAtlas } from './session-catalog.ts';

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

/** Reads one session file and posts its rows or its coded failure; never rejects. */
async function answer(request: ReadRequest): Promise<void> {
  try {
    const read = await readSessionFile(request.path, {
      fence,
      ...(request.resume ? { fromOffset: request.resume.fromOffset, state: request.resume.state } : {}),
    });
    parentPort!.postMessage({
      id: request.id,
      result: sessionFileReadFromAtlas(read),
    });
  } catch (error) {
    parentPort!.postMessage({
      id: request.id,
      error: { message: (error as Error).message, code: (error as { code?: string }).code },
    });
  }
}

parentPort!.on('message', (request: ReadRequest) => void answer(request));
