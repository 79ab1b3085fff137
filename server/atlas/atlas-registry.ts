import type { ServerContext } from '../server-context.ts';
import { AtlasService } from './atlas-service.ts';

const services = new WeakMap<ServerContext, AtlasService>();

/**
 * One Atlas per running server, made on first use. The roots come from the process environment
 * (`WEFT_SESSION_ROOTS`), else Settings (`sessionRoots`, re-read at each refresh), else the runners' default folders;
 * the index and follows live in the server's WEFT_HOME.
 */
export function atlasServiceFor(context: ServerContext): AtlasService {
  let service = services.get(context);
  if (!service) {
    service = new AtlasService({ weftHome: context.home, env: process.env, hub: context.hub, logger: context.logger });
    services.set(context, service);
  }
  return service;
}

/** Stops the watchers and closes the index (tests and shutdown). */
export async function closeAtlasService(context: ServerContext): Promise<void> {
  const service = services.get(context);
  services.delete(context);
  await service?.close();
}

export { AtlasService };
