/**
 * A demo study for recall's relevance figures (issue 30.2): one canvas of a researcher's questions on eight
 * subjects, five turns each, every turn labelled with its subject's topic (as the labelling job would). Written by
 * hand, like a person's notes: some turns never use their subject's word (a sunset is scattering all the same).
 */

export interface StudyTurn {
  id: string;
  question: string;
  answer: string;
}

export interface StudySubject {
  /** The topic its turns are labelled with. */
  topic: string;
  turns: StudyTurn[];
}

export const DEMO_STUDY_CANVAS_ID = 'demo-study';

export const DEMO_STUDY: StudySubject[] = [
  {
    topic: 'scattering',
    turns: [
      {
        id: 'sky-blue',
        question: 'Why is the sky blue?',
        answer:
          'Rayleigh scattering by air molecules: its strength goes as the inverse fourth power of the wavelength, so blue light is scattered about five times more than red.',
      },
      {
        id: 'clouds-white',
        question: 'Why are clouds white?',
        answer:
          'Cloud droplets (about 10 µm) are far larger than visible wavelengths. Mie scattering by them hardly depends on wavelength, so every colour is scattered alike and the cloud looks white.',
      },
      {
        id: 'sunset-red',
        question: 'Why do sunsets look red and orange?',
        answer:
          'With the sun low, its light crosses some forty times more air; the blue is scattered out of the beam on the way, and what reaches the eye is red and orange.',
      },
      {
        id: 'storm-grey',
        question: 'Why do storm clouds look grey or almost black?',
        answer:
          'A thick cloud scatters so much that little light gets through to its base; from below we see the shadowed underside.',
      },
      {
        id: 'cloud-conclusion',
        question: 'So what decides the colour of a cloud?',
        answer:
          'Conclusion: droplet size and the depth of the cloud, not the colour of the water. White from Mie scattering by large droplets, grey where the cloud is deep and its base in shadow.',
      },
    ],
  },
  {
    topic: 'sourdough',
    turns: [
      {
        id: 'hydration',
        question: 'How much water for a 75% hydration sourdough loaf?',
        answer: 'Per 500 g of flour, 375 g of water, counting the water in the levain.',
      },
      {
        id: 'starter-slow',
        question: 'Why is my sourdough starter not rising?',
        answer:
          'It is probably too cold: keep it at 24–26 °C and feed it 1:2:2 (starter, flour, water) twice a day for three days.',
      },
      {
        id: 'bulk',
        question: 'How long should bulk fermentation take?',
        answer: 'Four to six hours at 24 °C, until the dough has grown by half and is domed and bubbly at the edges.',
      },
      {
        id: 'gummy',
        question: 'What causes a gummy crumb in my bread?',
        answer:
          'Underbaking or cutting too early: bake until the inside reaches 96 °C and let the loaf rest an hour before slicing.',
      },
      {
        id: 'oven-spring',
        question: 'How do I get a better oven spring?',
        answer:
          'A Dutch oven preheated to 250 °C, steam for the first twenty minutes, a confident score, and an overnight cold retard.',
      },
    ],
  },
  {
    topic: 'varroa',
    turns: [
      {
        id: 'alcohol-wash',
        question: 'How do I count mites with an alcohol wash?',
        answer:
          'Take about 300 bees (half a cup) from a brood frame, shake them in alcohol for a minute and count the mites. Three mites per hundred bees is the treatment threshold.',
      },
      {
        id: 'treat-when',
        question: 'When should I treat the hives for varroa?',
        answer:
          'Right after the honey harvest in late summer if the count is over 3 %, and with oxalic acid in midwinter when the colony is broodless.',
      },
      {
        id: 'oxalic-safe',
        question: 'Is oxalic acid vaporisation safe for the bees?',
        answer:
          'Yes, when the colony is broodless; it does not reach mites under capped brood. Wear a respirator: the vapour harms people.',
      },
      {
        id: 'swarm',
        question: 'Why did the hive swarm in May?',
        answer: 'Congestion: the brood nest was full and they raised queen cells. Add space early or make a split.',
      },
      {
        id: 'winter-stores',
        question: 'How much honey should I leave the colony for winter?',
        answer: 'About 20–25 kg of stores for a full-size colony in a temperate winter.',
      },
    ],
  },
  {
    topic: 'fts5',
    turns: [
      {
        id: 'fts-setup',
        question: 'How do I set up full text search over my notes table in SQLite?',
        answer:
          "CREATE VIRTUAL TABLE notes_fts USING fts5(title, body, content='notes', content_rowid='id'); then query with MATCH.",
      },
      {
        id: 'fts-slow',
        question: 'Why is my FTS query slow on a large table?',
        answer:
          'ORDER BY rank scores every matching row with bm25() before the LIMIT applies; a common word matches most rows. Filter by rarer words first.',
      },
      {
        id: 'porter',
        question: 'What does the porter tokenizer do?',
        answer:
          "It stems English words, so 'running' and 'runs' index as 'run'; declare it with tokenize='porter unicode61'.",
      },
      {
        id: 'fts-sync',
        question: 'How do I keep an external-content FTS table in step with its table?',
        answer:
          'Triggers after insert, delete and update that write the old row as a delete command and the new row as an insert.',
      },
      {
        id: 'wal',
        question: 'How should WAL mode be configured for concurrent readers?',
        answer:
          'PRAGMA journal_mode=WAL and synchronous=NORMAL; readers never block the writer, and a checkpoint keeps the log small.',
      },
    ],
  },
  {
    topic: 'marathon',
    turns: [
      {
        id: 'long-runs',
        question: 'How long should my longest training run be before the marathon?',
        answer: 'Peak at about 32 km three weeks before race day, then taper.',
      },
      {
        id: 'easy-pace',
        question: 'What pace should my easy runs be?',
        answer: 'Sixty to ninety seconds per kilometre slower than marathon pace, in heart-rate zone 2.',
      },
      {
        id: 'fuel',
        question: 'How should I fuel during the race?',
        answer: '60–90 g of carbohydrate an hour: a gel every thirty minutes with water, practised on long runs.',
      },
      {
        id: 'knee',
        question: 'My knee hurts on the outside after long runs',
        answer:
          'Typical of the iliotibial band: raise your cadence a little, add hip strength work, and cut volume for a week.',
      },
      {
        id: 'taper',
        question: 'What taper plan before the marathon?',
        answer: 'Cut weekly volume by 40–60 % over three weeks while keeping some race-pace running.',
      },
    ],
  },
  {
    topic: 'tomatoes',
    turns: [
      {
        id: 'plant-out',
        question: 'When can I plant tomatoes outdoors?',
        answer: 'After the last frost, once the soil is at least 16 °C; harden the seedlings off for a week first.',
      },
      {
        id: 'yellow-leaves',
        question: 'Why are the bottom leaves of my tomato plants turning yellow?',
        answer: 'Early blight (brown rings on the spots) or a lack of nitrogen; remove the affected leaves and mulch.',
      },
      {
        id: 'blossom-rot',
        question: 'What causes blossom end rot?',
        answer: 'Poor calcium uptake from irregular watering: water deeply and evenly.',
      },
      {
        id: 'pruning',
        question: 'How do I prune indeterminate tomatoes?',
        answer: 'Pinch out the side shoots (suckers) weekly and keep a single stem tied to its cane.',
      },
      {
        id: 'feed',
        question: 'Which fertiliser should I give tomatoes?',
        answer: 'A high-potassium tomato feed every week once the first truss flowers.',
      },
    ],
  },
  {
    topic: 'tokio',
    turns: [
      {
        id: 'task-hangs',
        question: 'Why does my tokio task never finish?',
        answer: 'A blocking call inside async code stalls the worker thread; move it to spawn_blocking.',
      },
      {
        id: 'shared-state',
        question: 'How do I share state between tokio tasks?',
        answer: 'Arc<Mutex<T>>; use tokio::sync::Mutex only when the guard is held across an await.',
      },
      {
        id: 'cancel',
        question: 'How do I cancel a spawned tokio task?',
        answer: 'JoinHandle::abort, or a CancellationToken the task checks in a select!.',
      },
      {
        id: 'timeout',
        question: 'How do I put a timeout on a future in tokio?',
        answer: 'tokio::time::timeout(duration, future), or race it against sleep in select!.',
      },
      {
        id: 'send-error',
        question: 'Why does the compiler say my future is not Send?',
        answer: 'You hold a std MutexGuard or an Rc across an .await; drop it before the await or use an Arc.',
      },
    ],
  },
  {
    topic: 'espresso',
    turns: [
      {
        id: 'sour',
        question: 'Why does my espresso taste sour?',
        answer: 'Under-extracted: grind finer and aim for a 1:2 ratio in 25–30 seconds.',
      },
      {
        id: 'bitter',
        question: 'Why does my espresso taste bitter?',
        answer: 'Over-extracted: grind coarser, shorten the shot, or lower the brew temperature a little.',
      },
      {
        id: 'milk',
        question: 'How do I steam milk for a latte?',
        answer: 'Stretch for the first few seconds, then roll the milk until the jug is hot to hold, about 60–65 °C.',
      },
      {
        id: 'descale',
        question: 'How often should I descale the espresso machine?',
        answer: 'Every one to three months, depending on how hard your water is.',
      },
      {
        id: 'channeling',
        question: 'How do I stop channeling in the puck?',
        answer: 'Break clumps with a needle tool (WDT), distribute evenly and tamp level.',
      },
    ],
  },
];

/** The index key of a study turn (a canvas node's turn key). */
export function studyKey(id: string): string {
  return `canvas:${DEMO_STUDY_CANVAS_ID}#${id}`;
}
