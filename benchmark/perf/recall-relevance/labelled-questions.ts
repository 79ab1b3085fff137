import { studyKey } from './demo-study.ts';
import type { ExpectedTurn } from './relevance-at.ts';

/**
 * Recall's labelled set (issue 30.2): questions a person would ask, each with the turns they would expect recall to
 * bring, written by reading the turns (the demo study and the fixture sessions under `tests/fixtures/`), not by
 * running recall. `bench:recall` prints precision@5 and recall@10 over it.
 */
export interface LabelledQuestion {
  question: string;
  /** The turns a person expects among the recalled items (a group: one piece of work several runners recorded). */
  expected: ExpectedTurn[];
}

const subject = (...ids: string[]) => ids.map(studyKey);
const SCATTERING = subject('sky-blue', 'clouds-white', 'sunset-red', 'storm-grey', 'cloud-conclusion');
const SOURDOUGH = subject('hydration', 'starter-slow', 'bulk', 'gummy', 'oven-spring');
const VARROA = subject('alcohol-wash', 'treat-when', 'oxalic-safe', 'swarm', 'winter-stores');
const FTS5 = subject('fts-setup', 'fts-slow', 'porter', 'fts-sync', 'wal');
const MARATHON = subject('long-runs', 'easy-pace', 'fuel', 'knee', 'taper');
const TOMATOES = subject('plant-out', 'yellow-leaves', 'blossom-rot', 'pruning', 'feed');
const TOKIO = subject('task-hangs', 'shared-state', 'cancel', 'timeout', 'send-error');
const ESPRESSO = subject('sour', 'bitter', 'milk', 'descale', 'channeling');

// Fixture session turns (tests/fixtures/real-sessions and tests/fixtures/sessions); the scripted scenarios ran the
// same words under Claude Code, Codex and Pi, so each such trio is one expected answer.
const GREET = [
  'claude-code:fb8acab2-b67b-454f-91b5-f87d156f0f09#83cfa92c-0980-4b8e-bb7c-c5ebe8fb0d6c',
  'codex:01a22731-e203-7a90-a141-a1a3778f3fdf#01a22731-e279-7b30-8872-7f76aa99c814',
  'pi:01a22731-f770-772e-87d6-0c5b4c4356ca#f6bbbe58',
];
const TODO_WRITE = [
  'claude-code:4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b#27755dea-6db9-451b-948d-621ef06d0c52',
  'codex:01a22732-657a-7592-b814-5874c3ab6165#01a22732-65cf-7011-96d4-966b9e26c875',
  'pi:01a22732-78f8-7285-85e1-77d70ff3cfd9#99c0b75f',
];
const TODO_MARK = [
  'claude-code:4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b#29d23184-8849-4286-939a-bf6ade272228',
  'codex:01a22732-657a-7592-b814-5874c3ab6165#01a22732-6b9a-75e2-aa9c-4da40f1b3b76',
  'pi:01a22732-78f8-7285-85e1-77d70ff3cfd9#2fa1c052',
];
const IMAGE = [
  'claude-code:6e9e93c4-d365-4f28-8ccb-4290ef2d6df6#f8fd70f3-3266-4009-8a80-671201a74433',
  'codex:01a22732-3a77-7e61-b622-6bc464ddd6d1#01a22732-3acf-77a2-817f-cfe8aabcbd4e',
  'pi:01a22732-485f-76a3-a7c5-c5f76e80771e#1ca97243',
];
const CONFIG_JSON = [
  'claude-code:fb0b9600-3cec-431a-a97e-a301600db98f#05235337-fafa-4f3b-bb09-65b89f3df778',
  'codex:01a22732-134a-7c70-9f09-ad9663903743#01a22732-13b8-7a52-aad0-55825196c06e',
  'pi:01a22732-22e1-7454-bad0-9121ff75d4e9#802ae987',
];
const SUBAGENT_COUNT = [
  'claude-code:195b5b8f-a852-4bc6-b7e0-b737f1ca64d3#efc86c09-f21e-45a6-bb5d-1dc86a97ccdc',
  'claude-code:195b5b8f-a852-4bc6-b7e0-b737f1ca64d3/agent-a364d2f0ac3b26c85#a17c4191-cf05-44ca-bdbd-65e4bf664f56',
];
const SHOP_README = ['claude-code:5f0c2a9e-3b1d-4c6e-9a7f-1d2e3f405161#a1000000-0000-4000-8000-000000000001'];
const SHOP_CHANGES = [
  'claude-code:8a4b6c2d-7e9f-4a1b-8c3d-5e6f70819203#b2000000-0000-4000-8000-000000000001',
  'claude-code:8a4b6c2d-7e9f-4a1b-8c3d-5e6f70819203#b2000000-0000-4000-8000-000000000005',
];
const HERO_ALT = [
  'claude-code:c3d4e5f6-0718-4293-a4b5-c6d7e8f90a1b#c3000000-0000-4000-8000-000000000001',
  'claude-code:c3d4e5f6-0718-4293-a4b5-c6d7e8f90a1b#c3000000-0000-4000-8000-000000000007',
  'claude-code:c3d4e5f6-0718-4293-a4b5-c6d7e8f90a1b/sidechain-c3200000-0000-4000-8000-000000000001#c3200000-0000-4000-8000-000000000001',
];
const PHOENIX = [
  'claude-code:55604662-cf2a-4331-851a-ec234028f8ca#7d48cbd2-6615-4dd8-87f6-38f12b8167d6',
  'claude-code:d6e0bada-1959-4eec-a9d2-0bfade768d8f#5440873c-2d59-4c8c-88ec-c0a8c38a027d',
];

export const LABELLED_QUESTIONS: LabelledQuestion[] = [
  // The reported miss, and the rest of its subject.
  { question: 'What did we conclude about scattering and cloud colour?', expected: SCATTERING },
  { question: 'What do we know about scattering of light in the sky?', expected: SCATTERING },
  {
    question: 'Why are clouds white but storm clouds grey?',
    expected: subject('clouds-white', 'storm-grey', 'cloud-conclusion'),
  },
  { question: 'What explains a red sunset?', expected: subject('sunset-red') },
  {
    question: 'Rayleigh versus Mie scattering: which applies to droplets?',
    expected: subject('clouds-white', 'cloud-conclusion', 'sky-blue'),
  },
  { question: 'What did we find out about why the sky is blue?', expected: subject('sky-blue') },
  {
    question: 'What decides the colour of a cloud?',
    expected: subject('cloud-conclusion', 'clouds-white', 'storm-grey'),
  },
  // Sourdough.
  { question: 'Summarise everything on sourdough', expected: SOURDOUGH },
  { question: 'How much water did we use for 75% hydration?', expected: subject('hydration') },
  { question: 'What was wrong with the starter not rising?', expected: subject('starter-slow') },
  { question: 'How long does bulk fermentation take at 24 °C?', expected: subject('bulk') },
  { question: 'Why was the crumb gummy?', expected: subject('gummy') },
  { question: 'Tips for oven spring with a Dutch oven?', expected: subject('oven-spring') },
  { question: 'What did we learn about baking sourdough bread?', expected: SOURDOUGH },
  // Varroa.
  { question: 'What did we decide about varroa?', expected: VARROA },
  { question: 'How do I do an alcohol wash mite count?', expected: subject('alcohol-wash', 'treat-when') },
  { question: 'When is the varroa treatment threshold reached?', expected: subject('alcohol-wash', 'treat-when') },
  { question: 'Oxalic acid: when and is it safe?', expected: subject('treat-when', 'oxalic-safe') },
  { question: 'Why did the bees swarm?', expected: subject('swarm') },
  { question: 'How much honey for winter stores?', expected: subject('winter-stores') },
  { question: 'Everything about varroa mites and treatment', expected: VARROA },
  // SQLite full text search.
  { question: 'What did we work out about fts5 in SQLite?', expected: FTS5 },
  { question: 'How do I create an FTS5 virtual table for notes?', expected: subject('fts-setup', 'fts-sync') },
  { question: 'Why are full text search queries slow with bm25 ranking?', expected: subject('fts-slow') },
  { question: 'What is the porter tokenizer for?', expected: subject('porter') },
  { question: 'Triggers to keep the external content table in sync', expected: subject('fts-sync') },
  { question: 'WAL journal mode and checkpoints for readers', expected: subject('wal') },
  // Marathon.
  { question: 'What is my marathon plan?', expected: MARATHON },
  { question: 'How long was the longest training run?', expected: subject('long-runs') },
  { question: 'Easy run pace and heart rate zone', expected: subject('easy-pace') },
  { question: 'Race fuelling: how many gels and carbohydrate per hour?', expected: subject('fuel') },
  { question: 'Knee pain after long runs, iliotibial band', expected: subject('knee') },
  { question: 'How should I taper for the marathon?', expected: subject('taper', 'long-runs') },
  // Tomatoes.
  { question: 'Everything about my tomatoes', expected: TOMATOES },
  { question: 'When do tomatoes go outdoors after frost?', expected: subject('plant-out') },
  { question: 'Yellow leaves on tomato plants', expected: subject('yellow-leaves') },
  { question: 'Blossom end rot and calcium', expected: subject('blossom-rot') },
  { question: 'Pruning suckers on indeterminate tomatoes', expected: subject('pruning') },
  { question: 'What feed or fertiliser for tomatoes?', expected: subject('feed') },
  // Tokio.
  { question: 'What have we learned about tokio?', expected: TOKIO },
  { question: 'My async task hangs because of a blocking call', expected: subject('task-hangs') },
  { question: 'Sharing state with Arc and Mutex across tasks', expected: subject('shared-state', 'send-error') },
  { question: 'How to cancel or abort a spawned task?', expected: subject('cancel') },
  { question: 'Timeout a future with select', expected: subject('timeout', 'cancel') },
  { question: 'Future is not Send because of a MutexGuard', expected: subject('send-error', 'shared-state') },
  // Espresso.
  { question: 'What did we conclude about espresso?', expected: ESPRESSO },
  { question: 'Sour espresso shot: grind finer?', expected: subject('sour', 'bitter') },
  { question: 'Bitter over-extracted espresso', expected: subject('bitter', 'sour') },
  { question: 'Steaming milk temperature for a latte', expected: subject('milk') },
  { question: 'How often to descale the machine with hard water?', expected: subject('descale') },
  { question: 'Channeling in the puck, WDT and tamping', expected: subject('channeling') },
  // The fixture sessions.
  { question: 'How was the greet function in hello.ts written?', expected: [GREET] },
  { question: "Where did we change the greeting to 'Hi'?", expected: [GREET] },
  { question: 'What went into TODO.md and which items were unchecked?', expected: [TODO_WRITE, TODO_MARK] },
  { question: 'Which TODO item was marked as done?', expected: [TODO_MARK] },
  { question: 'What colour was the pixel.png image?', expected: [IMAGE] },
  { question: 'Did config.json exist when we checked git status?', expected: [CONFIG_JSON] },
  { question: 'How many TypeScript files did the subagent count under src?', expected: SUBAGENT_COUNT },
  { question: 'Who wrote the README for the shop service?', expected: SHOP_README },
  { question: 'Where did the release notes and CHANGELOG end up?', expected: SHOP_CHANGES },
  { question: 'The missing alt attribute on the Hero image', expected: HERO_ALT },
  { question: 'Why did the phoenix server not start?', expected: PHOENIX },
];
