import { fileURLToPath } from 'node:url';

/**
 * The project's shared fixtures (real session files, memory files) live in `shared/` beside the repository,
 * both on a developer's machine and in CI's fresh clone; resolve them from here, never by absolute path.
 */
export const SHARED_FIXTURES = fileURLToPath(new URL('../../../shared/fixtures', import.meta.url));
