// A vitest reporter for `npm test` (scripts/test.mjs): writes every test's outcome, with the note a skipped test
// gave, to the file named by WEFT_TEST_TALLY_FILE. vitest's own JSON report counts skips but drops their notes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export default class TestTallyReporter {
  onTestRunEnd(testModules) {
    const target = process.env.WEFT_TEST_TALLY_FILE;
    if (!target) return;
    const outcomes = testModules.flatMap((testModule) =>
      [...testModule.children.allTests()].map((test) => {
        const result = test.result();
        return {
          file: path.relative(process.cwd(), testModule.moduleId),
          name: test.fullName,
          state: result.state,
          mode: test.options.mode,
          ...(result.state === 'skipped' && result.note ? { note: result.note } : {}),
        };
      }),
    );
    writeFileSync(target, JSON.stringify(outcomes));
  }
}
