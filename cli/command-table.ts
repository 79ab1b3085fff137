import { parseArgs } from 'node:util';
import { CliError } from './cli-error.ts';

/** One flag of the options table. Numbers are parsed and checked here, not in the handlers. */
export interface FlagSpec {
  type: 'boolean' | 'string' | 'number';
  description: string;
  choices?: readonly string[];
}

export interface CommandSpec {
  name: string;
  usage: string;
  summary: string;
  /** Minimum and maximum number of positional arguments. */
  positionals: [number, number];
  flags: Record<string, FlagSpec>;
  examples: string[];
}

const json: FlagSpec = { type: 'boolean', description: 'print JSON for machines instead of text' };
const limit: FlagSpec = { type: 'number', description: 'at most this many results' };

/** The one options table: help, parsing and validation all come from here. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'index',
    usage: 'weft index [--full] [--push [--db postgres://…]] [--json]',
    summary: 'build or update the why index (sessions, memory files, canvases)',
    positionals: [0, 0],
    flags: {
      full: { type: 'boolean', description: 'rebuild from scratch instead of updating' },
      push: {
        type: 'boolean',
        description: 'then add to the team index what this machine has not pushed yet (append-aware, safe to re-run)',
      },
      db: {
        type: 'string',
        description: 'the team index --push sends to (else WEFT_DATABASE_URL)',
      },
      json,
    },
    examples: ['weft index', 'weft index --full', 'weft index --push --db postgres://db.lab.example/weft'],
  },
  {
    name: 'why',
    usage: 'weft why <path|name|url|arxiv:id> [--include-read] [--all] [--limit N] [--json] | weft why --check <path>',
    summary: 'the turns that touched a file (newest first)',
    positionals: [1, 1],
    flags: {
      check: { type: 'boolean', description: 'one line; exit 0 when the path has history, 1 when none' },
      'include-read': { type: 'boolean', description: 'also show turns that only read the file' },
      all: { type: 'boolean', description: 'match a bare file name anywhere, not only inside the git root' },
      limit,
      json,
    },
    examples: [
      'weft why src/app.ts',
      'weft why app.ts --all',
      'weft why https://example.org/doc',
      'weft why arxiv:2401.01234',
    ],
  },
  {
    name: 'find',
    usage: 'weft find "<phrase>" [--in q|a|m] [--cwd DIR] [--limit N] [--json]',
    summary: 'exact-phrase search in questions, answers and materials',
    positionals: [1, 1],
    flags: {
      in: { type: 'string', description: 'q (questions), a (answers) or m (materials)', choices: ['q', 'a', 'm'] },
      cwd: { type: 'string', description: 'only turns whose working directory is DIR or inside it' },
      limit,
      json,
    },
    examples: ['weft find "race condition"', 'weft find "greet" --in q --cwd .'],
  },
  {
    name: 'recall',
    usage: 'weft recall <turnKey> | <sessionId> <turn> [--json]',
    summary: 'one turn verbatim: question, answer and tool steps',
    positionals: [1, 2],
    flags: { json },
    examples: ['weft recall "claude-code:fb8acab2-…#83cfa92c-…"', 'weft recall fb8acab2 1'],
  },
  {
    name: 'status',
    usage: 'weft status [--json]',
    summary: 'roots, sources, sessions, turns, database size and last index time',
    positionals: [0, 0],
    flags: { json },
    examples: ['weft status'],
  },
  {
    name: 'verify',
    usage: 'weft verify <canvas id|name> [--json]',
    summary: "check a canvas's event log against the chain head kept beside it (exit 1 when broken)",
    positionals: [1, 1],
    flags: { json },
    examples: ['weft verify "Research plan"', 'weft verify mgku4ymw1uy9jt5e --json'],
  },
  {
    name: 'compare',
    usage: 'weft compare <canvas id|name|file> [--run <name>] [--json]',
    summary:
      "a re-run under another model against the person's answers: per question, whether checks and the number changed, and the first divergence (exit 1 when the runs diverge)",
    positionals: [1, 1],
    flags: { run: { type: 'string', description: 'the run to compare (without it: list the canvas’s runs)' }, json },
    examples: ['weft compare "Study" --run "haiku run"', 'weft compare study.weft.json --run "haiku run" --json'],
  },
  {
    name: 'topics',
    usage:
      'weft topics [list | create <name> | rename <topic> <name> | merge <topic> <into> | delete <topic> | label [--yes] | labels <topic> | unlabel <topic> <turn-key>] [--json]',
    summary: 'the topic table you own, and labelling turns with topics (started only by you)',
    positionals: [0, 3],
    flags: { yes: { type: 'boolean', description: 'label: run the plan instead of only showing it' }, json },
    examples: [
      'weft topics create "Dexie schema"',
      'weft topics merge Storage "Dexie schema"',
      'weft topics label',
      'weft topics label --yes',
      'weft topics labels Storage',
      'weft topics unlabel Storage "claude-code:abc#3"',
    ],
  },
  {
    name: 'memory',
    usage:
      'weft memory journal [--verdict V] [--limit N] [--json] | weft memory journal --verify [--json] | weft memory inbox [--limit N] [--json] | weft memory accept <id> [--text T] | weft memory reject <id>' +
      ' | weft memory history <line> [--json] | weft memory put-asides [--limit N] [--json] | weft memory restore <id>',
    summary:
      "memory's hash-chained journals (profile and topics), newest first (--verify checks them, exit 1 when broken); the Inbox of proposed facts and the person's decision on one; a profile line's versions with when each was recorded and when it held; what is put aside, and restoring it",
    positionals: [1, 2],
    flags: {
      verdict: {
        type: 'string',
        description: 'only entries with this verdict',
        choices: [
          'proposed',
          'admitted',
          'refused',
          'superseded',
          'undone',
          'deleted',
          'edited',
          'labelled',
          'setting',
        ],
      },
      verify: { type: 'boolean', description: 'check both chains against their chain heads instead of listing' },
      text: { type: 'string', description: 'accept: the line as edited by the person instead of as proposed' },
      limit,
      json,
    },
    examples: [
      'weft memory journal',
      'weft memory journal --verdict refused --limit 20',
      'weft memory journal --verify',
      'weft memory inbox',
      'weft memory accept 0b7c…',
      'weft memory accept 0b7c… --text "I prefer tabs for indentation."',
      'weft memory reject 0b7c…',
      'weft memory history 5f2e…',
      'weft memory history 5f2e… --json',
      'weft memory put-asides',
      'weft memory restore 12',
    ],
  },
  {
    name: 'dossier',
    usage: 'weft dossier <topic> [--json]',
    summary: "a topic's dossier (by name or id): four sections, each sentence with the turn keys it cites",
    positionals: [1, 1],
    flags: { json },
    examples: ['weft dossier Storage', 'weft dossier "Dexie schema" --json'],
  },
  {
    name: 'import',
    usage: 'weft import <conversations.json> [--json]',
    summary: 'import a ChatGPT or Claude.ai export: one new canvas per conversation (branches kept)',
    positionals: [1, 1],
    flags: { json },
    examples: ['weft import ~/Downloads/conversations.json', 'weft import claude-export/conversations.json --json'],
  },
  {
    name: 'compile',
    usage:
      'weft compile <file.weft.json> --node <id> [--model ID] [--no-memory] [--no-recall] [--confirm-full] [--json] [--bundle [--out FILE]]',
    summary: "a node's request as the app would send it: messages, per-part sources and SHA-256",
    positionals: [1, 1],
    flags: {
      node: { type: 'string', description: 'the question node to compile' },
      model: { type: 'string', description: "the model when the node pins none (default: the app's default)" },
      bundle: { type: 'boolean', description: 'also write the Context Bundle (C26)' },
      'no-memory': { type: 'boolean', description: 'leave out the [Memory] block the app would insert' },
      'no-recall': { type: 'boolean', description: 'leave out the recall block of a node with recall on (C16)' },
      'confirm-full': {
        type: 'boolean',
        description: 'a node with a full reach: run it (the decision model reads every excerpt in scope)',
      },
      out: { type: 'string', description: 'with --bundle: where (default ./<node>.context-bundle.json)' },
      json,
    },
    examples: ['weft compile plan.weft.json --node q7', 'weft compile plan.weft.json --node q7 --bundle --json'],
  },
  {
    name: 'bundle',
    usage: 'weft bundle verify <file> [--json]',
    summary: "re-check a Context Bundle's request hash (exit 1 when it does not match)",
    positionals: [2, 2],
    flags: { json },
    examples: ['weft bundle verify q7.context-bundle.json'],
  },
  {
    name: 'archive',
    usage: 'weft archive verify [--json] | weft archive export <session> <folder> [--json]',
    summary: 'check every kept copy of a session file (exit 1 names the first bad one), or write one out',
    positionals: [1, 3],
    flags: { json },
    examples: [
      'weft archive verify',
      'weft archive export fb8acab2 ~/exports',
      'weft archive export ~/.claude/projects/app/fb8acab2.jsonl ./out --json',
    ],
  },
  {
    name: 'purge',
    usage: 'weft purge [--archive [--runner claude-code|codex|pi]] [--json]',
    summary: 'delete the index database (under WEFT_HOME only; canvases stay); --archive also the kept session copies',
    positionals: [0, 0],
    flags: {
      archive: { type: 'boolean', description: 'also drop the archive of session files ($WEFT_HOME/archive)' },
      runner: {
        type: 'string',
        description: 'with --archive: only this runner’s copies (the index stays)',
        choices: ['claude-code', 'codex', 'pi'],
      },
      json,
    },
    examples: ['weft purge', 'weft purge --archive', 'weft purge --archive --runner codex'],
  },
  {
    name: 'db',
    usage:
      'weft db init [--person NAME --out FILE] | weft db grant|revoke <person> <project> | weft db grants ' +
      '[--db postgres://admin…] [--json]',
    summary: 'set up a team index on PostgreSQL: schema, roles, one login per person, who may read which project',
    positionals: [1, 3],
    flags: {
      db: { type: 'string', description: 'the admin connection string (else WEFT_DATABASE_URL); never printed' },
      person: { type: 'string', description: 'with init: make (or give a new password to) this person’s role' },
      out: { type: 'string', description: 'with --person: write their connection string to this new file (0600)' },
      json,
    },
    examples: [
      'weft db init --db postgres://admin@db.lab.example/weft',
      'weft db init --person ana --out ana.url',
      'weft db grant ana /home/ana/projects/survey',
      'weft db grant ana canvas:3f2a9c',
      'weft db revoke ana canvas:3f2a9c',
    ],
  },
  {
    name: 'mcp',
    usage: 'weft mcp',
    summary: 'serve why_check, why_file, find and recall_turn over MCP (stdio)',
    positionals: [0, 0],
    flags: {},
    examples: ['weft mcp'],
  },
  {
    name: 'setup',
    usage: 'weft setup mcp [--remove] [--json]',
    summary: 'register (or remove) the MCP server for Claude Code (.mcp.json here) and Codex (~/.codex/config.toml)',
    positionals: [1, 1],
    flags: { remove: { type: 'boolean', description: 'remove the weft entries again' }, json },
    examples: ['weft setup mcp', 'weft setup mcp --remove'],
  },
  {
    name: 'help',
    usage: 'weft help [command]',
    summary: 'this help',
    positionals: [0, 1],
    flags: {},
    examples: ['weft help why'],
  },
];

export type FlagValues = Record<string, string | boolean | number | undefined>;

export interface ParsedCommand {
  command: CommandSpec;
  positionals: string[];
  flags: FlagValues;
}

export function commandNamed(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/** Parses `argv` (without node and script) against the table; usage errors throw a CliError with exit code 2. */
export function parseCommandLine(argv: readonly string[]): ParsedCommand {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    return { command: commandNamed('help')!, positionals: [], flags: {} };
  }
  const command = commandNamed(name);
  if (!command) throw new CliError('unknown-command', `unknown command "${name}" (try: weft help)`, 2);
  const options: Record<string, { type: 'boolean' | 'string' }> = { help: { type: 'boolean' } };
  for (const [flag, spec] of Object.entries(command.flags)) {
    options[flag] = { type: spec.type === 'boolean' ? 'boolean' : 'string' };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...rest], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError('bad-usage', `${(error as Error).message.split('\n')[0]} (usage: ${command.usage})`, 2);
  }
  if (parsed.values.help) return { command: commandNamed('help')!, positionals: [command.name], flags: {} };
  const flags: FlagValues = {};
  for (const [flag, spec] of Object.entries(command.flags)) {
    const value = parsed.values[flag];
    if (value === undefined) continue;
    if (spec.type === 'number') {
      const number = Number(value);
      if (!Number.isInteger(number) || number <= 0) {
        throw new CliError('bad-usage', `--${flag} needs a positive whole number, got "${String(value)}"`, 2);
      }
      flags[flag] = number;
    } else if (spec.choices && !spec.choices.includes(String(value))) {
      throw new CliError('bad-usage', `--${flag} must be one of ${spec.choices.join(', ')}`, 2);
    } else {
      flags[flag] = value as string | boolean;
    }
  }
  const [minimum, maximum] = command.positionals;
  if (parsed.positionals.length < minimum || parsed.positionals.length > maximum) {
    throw new CliError('bad-usage', `usage: ${command.usage}`, 2);
  }
  return { command, positionals: parsed.positionals, flags };
}

export function helpText(name?: string): string {
  const command = name ? commandNamed(name) : undefined;
  if (command) {
    const flags = Object.entries(command.flags).map(([flag, spec]) => {
      const value = spec.type === 'number' ? ' N' : spec.type === 'string' ? ' VALUE' : '';
      return `  --${flag}${value}`.padEnd(22) + spec.description;
    });
    return [
      `usage: ${command.usage}`,
      '',
      command.summary,
      ...(flags.length > 0 ? ['', 'options:', ...flags] : []),
      '',
      'examples:',
      ...command.examples.map((example) => `  ${example}`),
    ].join('\n');
  }
  return [
    'usage: weft <command> [options]',
    '',
    'commands:',
    ...COMMANDS.map((entry) => `  ${entry.name.padEnd(8)} ${entry.summary}`),
    '',
    'environment: WEFT_HOME (default ~/.weft), WEFT_SESSION_ROOTS (roots separated by ":", over the roots chosen in Settings), WEFT_MEMORY_ROOTS',
    'run "weft help <command>" for its options',
  ].join('\n');
}
