import { fileURLToPath } from 'node:url';

/**
 * The project's fixtures (real session files, memory files) are kept in the repository under `tests/fixtures/`
 * with their sources and licence notices, so a plain clone runs every test; resolve them from here.
 */
export const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));
