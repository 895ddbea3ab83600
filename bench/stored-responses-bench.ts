// CPU of a stored Response (`POST /responses` with `store`, OpenAI's default) on SQLite: one
// `ResponseStore.save` of a realistic response (the gateway benchmark's answer text, its request's
// instructions and input), and one `find` of a stored id, through the server's own repository.
// `--per-turn N` saves are made per event-loop turn (the store writes one turn's saves in one
// statement: 1 is a sequential client, more a loaded server). Two databases in one process,
// rounds alternating: Kysely's statements kept prepared by SQL text (what a server runs) and
// prepared anew per query (`statementCache: 0`, what Kysely's SQLite driver does on its own). The
// figure is the minimum over rounds (a busy machine only adds time).
//
//   npx tsc -p tsconfig.json && node dist/bench/stored-responses-bench.js [--rounds 8] [--saves 500] [--per-turn 1]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Migrator } from 'kysely';
import { ResponseStore } from '../src/domain/responses/response-store.js';
import { migrationProvider } from '../src/store/migrations/index.js';
import { createStoredResponseRepository } from '../src/store/repositories/stored-responses.js';
import { openSqlite } from '../src/store/sqlite/connect.js';
import { ANSWER_PIECES, SYSTEM_PROMPT, USER_PROMPT } from './gateway-bench/payloads.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    saves: { type: 'string', default: '500' },
    'per-turn': { type: 'string', default: '1' },
  },
});
const ROUNDS = Number(values.rounds);
const SAVES = Number(values.saves);
const PER_TURN = Math.max(1, Number(values['per-turn']));
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const MODES = ['kept', 'anew'] as const;
type Mode = (typeof MODES)[number];

const scope = { workspaceId: '00000000-0000-4000-8000-000000000001', keyHash: 'a'.repeat(64) };
const text = ANSWER_PIECES.join('');
const inputItems = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: USER_PROMPT }] }];

let seq = 0;
/** A completed response as the codec hands it to the store (the benchmark's answer). */
function response(): { id: string; output: unknown[]; body: Record<string, unknown> } {
  seq += 1;
  const id = `gen-${Date.now()}-${seq.toString(16).padStart(10, '0')}`;
  const output = [
    {
      type: 'message',
      id: `msg_${id.slice(4)}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
    },
  ];
  const body = {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model: 'openai/gpt-4o-mini',
    instructions: SYSTEM_PROMPT,
    output,
    temperature: 0.2,
    max_output_tokens: 512,
    store: true,
    tools: [],
    usage: { input_tokens: 187, output_tokens: 214, total_tokens: 401 },
    metadata: {},
  };
  return { id, output, body };
}

async function open(mode: Mode, dir: string) {
  const conn = openSqlite(`sqlite:${join(dir, `${mode}.db`)}`, {
    checkpointWorker: false,
    statementCache: mode === 'kept' ? undefined : 0,
  });
  const { error } = await new Migrator({ db: conn.db, provider: migrationProvider }).migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  const store = new ResponseStore({
    repository: createStoredResponseRepository(conn.db),
    clock: { now: () => new Date() },
    retentionMs: 86_400_000,
    maxBytes: 8 * 1024 * 1024,
  });
  return { conn, store, ids: [] as string[] };
}

const cpuUs = (start: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(start);
  return used.user + used.system;
};

const dir = mkdtempSync(join(tmpdir(), 'switchyard-stored-responses-'));
try {
  const targets = new Map<Mode, Awaited<ReturnType<typeof open>>>();
  for (const mode of MODES) targets.set(mode, await open(mode, dir));
  const saves = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
  const finds = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < MODES.length; i++) {
      const mode = MODES[(i + r) % MODES.length] as Mode;
      const target = targets.get(mode);
      if (target === undefined) continue;
      const made = Array.from({ length: SAVES }, response);
      const before = process.cpuUsage();
      for (const [i, { id, output, body }] of made.entries()) {
        target.store.save({ id, ...scope, inputItems, outputItems: output, response: body });
        target.ids.push(id);
        if ((i + 1) % PER_TURN === 0) await turn();
      }
      // Every save has run (each one's write is awaited by a read of its id).
      for (const { id } of made) await target.store.find(id, scope);
      const savedAndFound = cpuUs(before);
      const found = process.cpuUsage();
      for (const { id } of made) {
        if ((await target.store.find(id, scope)) === null) throw new Error(`${mode}: ${id} was not stored`);
      }
      const findUs = cpuUs(found) / SAVES;
      finds.get(mode)?.push(findUs);
      saves.get(mode)?.push(savedAndFound / SAVES - findUs);
    }
  }
  const line = (label: string, c: number[]) => {
    const sorted = [...c].sort((a, b) => a - b);
    return `${label} min ${(sorted[0] ?? 0).toFixed(1)} µs, median ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(1)} µs`;
  };
  for (const mode of MODES) {
    const label = mode === 'kept' ? 'statements kept' : 'prepared anew  ';
    process.stdout.write(
      `${label}  ${line('save', saves.get(mode) ?? [])}; ${line('find', finds.get(mode) ?? [])} (${ROUNDS} rounds × ${SAVES}, ${PER_TURN} per turn)\n`,
    );
  }
  for (const { conn } of targets.values()) await conn.db.destroy();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
