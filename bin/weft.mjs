#!/usr/bin/env node
// The `weft` command: runs the TypeScript CLI through tsx's loader, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { main } = await import(new URL('../cli/main.ts', import.meta.url).href);
await main(process.argv.slice(2));
