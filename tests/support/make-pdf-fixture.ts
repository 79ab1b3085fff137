// Regenerates tests/fixtures/two-pages.pdf: `npx tsx tests/support/make-pdf-fixture.ts`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { minimalPdf } from './minimal-pdf.ts';

const target = fileURLToPath(new URL('../fixtures/two-pages.pdf', import.meta.url));
writeFileSync(
  target,
  minimalPdf([
    ['Hello PDF page one', 'Second line with quick brown fox'],
    ['Page two talks about (parentheses) and more'],
  ]),
);
console.log(`wrote ${target}`);
