import type { Clock } from '../common/clock.js';
import { errors } from '../../errors/index.js';
import type { ResponseScope, SerializedResponse, StoredResponse, StoredResponseRepository } from './types.js';

/**
 * Stored Responses: what `store: true` keeps and what `previous_response_id` and `item_reference`
 * read back, scoped to the workspace and key that made a response, kept `retentionMs`, at most
 * `maxBytes` per response (a larger one is not kept), pruned in the background in small batches.
 * A save is awaited by any read of the same id in this process, so a client that chains at once
 * on the answer it just received finds it.
 */
export interface ResponseStoreOptions {
  repository: StoredResponseRepository;
  clock: Clock;
  retentionMs: number;
  maxBytes: number;
  /** How often expired responses are pruned, and how many per batch. */
  pruneEveryMs?: number;
  pruneBatch?: number;
}

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The response an item id of ours belongs to: items are named `<prefix>_<generation id without
 * "gen-">[_<n>]` (msg_, fc_, rs_, …), so the id says which response to read.
 */
export function responseIdOfItem(itemId: string): string | null {
  const parts = itemId.split('_');
  const base = parts[1];
  return parts.length >= 2 && base !== undefined && base !== '' ? `gen-${base}` : null;
}

function findItem(response: StoredResponse, id: string): unknown {
  for (const item of [...response.outputItems, ...response.inputItems])
    if (isRecord(item) && item.id === id) return item;
  return undefined;
}

/**
 * What one statement writes at most: this many responses, or as many as reach this size (a single
 * response may be larger, up to `maxBytes`: it is then a statement of its own).
 */
const SAVE_BATCH = 32;
const SAVE_BATCH_BYTES = 1024 * 1024;

/** The saves of one event-loop turn, and their write. */
interface QueuedSaves {
  responses: SerializedResponse[];
  written: Promise<void>;
}

export class ResponseStore {
  private readonly pending = new Map<string, Promise<void>>();
  private queued: QueuedSaves | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pruning: Promise<void> | null = null;

  constructor(private readonly options: ResponseStoreOptions) {}

  private now(): string {
    return this.options.clock.now().toISOString();
  }

  async find(id: string, scope: ResponseScope): Promise<StoredResponse | null> {
    await this.pending.get(id);
    return this.options.repository.find(id, scope, this.now());
  }

  async remove(id: string, scope: ResponseScope): Promise<boolean> {
    await this.pending.get(id);
    return this.options.repository.remove(id, scope);
  }

  /**
   * The whole input of a call: the previous response's input and output first (when it names
   * one), then its own items with every `item_reference` replaced by the stored item. A response
   * or item the scope cannot read is a 404 / 400 naming the field.
   */
  async resolveInput(body: Json, scope: ResponseScope): Promise<unknown[] | null> {
    const previousId = body.previous_response_id;
    const input = body.input;
    const items: unknown[] =
      typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [];
    const hasReference = items.some((i) => isRecord(i) && i.type === 'item_reference');
    if ((typeof previousId !== 'string' || previousId === '') && !hasReference) return null;
    const out: unknown[] = [];
    const cache = new Map<string, StoredResponse | null>();
    const load = async (id: string) => {
      if (!cache.has(id)) cache.set(id, await this.find(id, scope));
      return cache.get(id) ?? null;
    };
    if (typeof previousId === 'string' && previousId !== '') {
      const previous = await load(previousId);
      if (previous === null)
        throw errors.notFound(`Response with id '${previousId}' not found.`, { field: 'previous_response_id' });
      out.push(...previous.inputItems, ...previous.outputItems);
    }
    for (const [i, item] of items.entries()) {
      if (!isRecord(item) || item.type !== 'item_reference') {
        out.push(item);
        continue;
      }
      const id = typeof item.id === 'string' ? item.id : '';
      const owner = responseIdOfItem(id);
      const found = owner === null ? undefined : findItem((await load(owner)) ?? emptyResponse(), id);
      if (found === undefined)
        throw errors.invalidRequest(`input[${i}].id: item '${id}' not found among this key's stored responses`, {
          field: `input[${i}].id`,
        });
      out.push(found);
    }
    return out;
  }

  /**
   * Keeps a response (not when larger than the bound); never rejects. Saves made while the event
   * loop runs are written together once it turns (`writeQueued`): one statement, one transaction.
   */
  save(response: Omit<StoredResponse, 'createdAt' | 'expiresAt'>): void {
    const inputItems = JSON.stringify(response.inputItems);
    const outputItems = JSON.stringify(response.outputItems);
    const body = JSON.stringify(response.response);
    // The size of the three as one JSON array (brackets and two commas), each part serialised once.
    const bytes = Buffer.byteLength(inputItems) + Buffer.byteLength(outputItems) + Buffer.byteLength(body) + 4;
    if (bytes > this.options.maxBytes) return;
    const now = this.options.clock.now();
    if (this.queued === null) {
      const responses: SerializedResponse[] = [];
      const written: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
        this.writeQueued({ responses, written }),
      );
      this.queued = { responses, written };
    }
    this.queued.responses.push({
      id: response.id,
      workspaceId: response.workspaceId,
      keyHash: response.keyHash,
      inputItems,
      outputItems,
      response: body,
      bytes,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.options.retentionMs).toISOString(),
    });
    this.pending.set(response.id, this.queued.written);
  }

  /** Writes a turn's saves, a bounded batch per statement; a failed statement loses its saves (a later 404). */
  private async writeQueued(queued: QueuedSaves): Promise<void> {
    const { responses, written } = queued;
    if (this.queued?.responses === responses) this.queued = null;
    let batch: SerializedResponse[] = [];
    let bytes = 0;
    for (const [i, response] of responses.entries()) {
      batch.push(response);
      bytes += response.bytes;
      if (i < responses.length - 1 && batch.length < SAVE_BATCH && bytes < SAVE_BATCH_BYTES) continue;
      try {
        await this.options.repository.saveAll(batch);
      } catch {
        // A lost save is a later 404, never a failed call.
      }
      batch = [];
      bytes = 0;
    }
    for (const { id } of responses) if (this.pending.get(id) === written) this.pending.delete(id);
  }

  /** Starts the background pruning (unref'd: it never keeps the process alive). */
  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => {
      this.pruning ??= this.prune().then(() => {
        this.pruning = null;
      });
    }, this.options.pruneEveryMs ?? 60_000);
    this.timer.unref();
  }

  /** Prunes expired responses, batch after batch, until a batch is not full; returns how many. */
  async prune(): Promise<number> {
    const batch = this.options.pruneBatch ?? 500;
    let total = 0;
    try {
      for (;;) {
        const n = await this.options.repository.pruneExpired(this.now(), batch);
        total += n;
        if (n < batch) break;
      }
    } catch {
      // The store is unreachable: the next round prunes what is left.
    }
    return total;
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.pruning;
    await Promise.all(this.pending.values());
  }
}

function emptyResponse(): StoredResponse {
  return {
    id: '',
    workspaceId: '',
    keyHash: '',
    inputItems: [],
    outputItems: [],
    response: {},
    createdAt: '',
    expiresAt: '',
  };
}
