import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  type ChangeFeed,
  type ChangeFeedObserver,
  type ChangeFeedState,
  type ChangeHandler,
  type ChangeTopic,
} from '../../domain/common/changes.js';
import { ChangeDispatcher, type LogFn } from '../change-feed.js';
import { CHANGE_CHANNEL, parsePayload, parsePing, payloadOf, pingPayload, withTimeout } from './change-payload.js';
import { NotifyQueue, releaseWaiters } from './notify-queue.js';

export interface PostgresChangeFeedOptions {
  url: string;
  /** How the LISTEN connection shows in pg_stat_activity (default switchyard-change-feed). */
  applicationName?: string;
  log?: LogFn;
  /** The listening connection is probed this often (a silent network loss has no socket event). */
  heartbeatMs?: number;
  /** Connect, LISTEN, probe and NOTIFY each give up after this long. */
  timeoutMs?: number;
  /** Reconnect backoff: first delay, doubled per failed attempt up to the maximum. */
  backoffMinMs?: number;
  backoffMaxMs?: number;
  /** Above this many distinct queued notifications, they collapse into "anything changed" per topic. */
  maxQueued?: number;
}

/**
 * PostgreSQL LISTEN/NOTIFY on one dedicated connection (not from the pool). While it is up the
 * feed is `live`; when it drops (error, end, failed probe) the feed is `down`, every subscriber
 * hears "anything may have changed", and reconnection is retried with capped exponential backoff.
 * Once LISTEN is active again, subscribers hear it once more (changes made meanwhile were missed).
 * Notifications published while down are queued and sent after reconnecting.
 */
export class PostgresChangeFeed implements ChangeFeed {
  readonly kind = 'postgres' as const;
  private readonly dispatcher: ChangeDispatcher;
  private readonly log: LogFn;
  private client: pg.Client | null = null;
  private live = false;
  private closed = false;
  private attempts = 0;
  private everConnected = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private connecting: Promise<void> | null = null;
  private readonly queue: NotifyQueue;
  private sending: Promise<void> | null = null;
  /** Probes sent to ourselves and not heard back yet, by nonce. */
  private readonly echoes = new Map<string, () => void>();

  constructor(private readonly options: PostgresChangeFeedOptions) {
    this.log = options.log ?? (() => undefined);
    this.dispatcher = new ChangeDispatcher(this.log);
    this.queue = new NotifyQueue(options.maxQueued ?? 1000);
  }

  subscribe(topic: ChangeTopic, handler: ChangeHandler): () => void {
    return this.dispatcher.subscribe(topic, handler);
  }

  observe(observer: ChangeFeedObserver): () => void {
    const stop = this.dispatcher.observe(observer);
    observer.stateChanged?.(this.state());
    return stop;
  }

  state(): ChangeFeedState {
    return this.live ? 'live' : 'down';
  }

  refresh(): void {
    // Notifications arrive by themselves.
  }

  async start(): Promise<void> {
    const every = this.options.heartbeatMs ?? 5000;
    this.heartbeat ??= setInterval(() => void this.probe(), every);
    this.heartbeat.unref();
    await this.connect();
  }

  publish(topic: ChangeTopic, id: string | null): Promise<void> {
    this.dispatcher.dispatch(topic, id);
    if (this.closed) return Promise.resolve();
    // Resolves once sent, or once an attempt failed (it then stays queued for the reconnection).
    return new Promise<void>((resolve) => {
      this.queue.add(topic, id, resolve);
      void this.send();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const timeoutMs = this.options.timeoutMs ?? 3000;
    if (this.live && this.queue.size > 0)
      await withTimeout(this.send(), timeoutMs, 'final send').catch(() => undefined);
    this.closed = true;
    if (this.queue.size > 0) this.log(`change feed: ${this.queue.size} notification(s) unsent at shutdown`);
    this.queue.clear();
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    this.live = false;
    if (client !== null)
      await withTimeout(client.end(), timeoutMs, 'disconnect').catch(() => client.connection.stream.destroy());
  }

  /** Sends queued notifications in order over the listening connection, one sender at a time. */
  private send(): Promise<void> {
    if (this.sending === null) {
      const run: Promise<void> = this.sendQueued().finally(() => {
        if (this.sending === run) this.sending = null;
        // Published while this round was finishing (its publisher still waits): another round.
        if (this.queue.hasWaiters()) void this.send();
      });
      this.sending = run;
    }
    return this.sending;
  }

  private async sendQueued(): Promise<void> {
    // Down (LISTEN connection lost, maybe the database is fine): one short-lived connection.
    if (!this.live && !this.closed && this.queue.size > 0) await this.sendDirect();
    while (this.live && this.client !== null) {
      const item = this.queue.shift();
      if (item === undefined) break;
      const client = this.client;
      try {
        await withTimeout(
          client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payloadOf(item)]),
          this.options.timeoutMs ?? 3000,
          'notify',
        );
      } catch (error) {
        this.dispatcher.report((o) => o.publishFailed?.());
        this.queue.putBack(item);
        this.lost(client, error);
        break;
      }
      releaseWaiters(item);
    }
  }

  /**
   * While the LISTEN connection is down, notifications still go out over a short-lived
   * connection, so other replicas hear of this replica's writes even then. When that fails too,
   * they stay queued for the reconnection, and the publishers stop waiting.
   */
  private async sendDirect(): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? 3000;
    const items = this.queue.takeAll();
    const client = new pg.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: timeoutMs,
      application_name: `${this.options.applicationName ?? 'switchyard-change-feed'}-send`,
    });
    client.on('error', () => undefined);
    let sent = 0;
    try {
      await withTimeout(client.connect(), timeoutMs + 500, 'connect');
      for (const item of items) {
        await withTimeout(
          client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payloadOf(item)]),
          timeoutMs,
          'notify',
        );
        sent += 1;
        releaseWaiters(item);
      }
    } catch {
      this.dispatcher.report((o) => o.publishFailed?.());
      for (const item of items.slice(sent)) this.queue.putBack(item);
    } finally {
      void withTimeout(client.end(), timeoutMs, 'disconnect').catch(() => client.connection.stream.destroy());
    }
  }

  private connect(): Promise<void> {
    this.connecting ??= this.attemptConnect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async attemptConnect(): Promise<void> {
    if (this.closed || this.client !== null) return;
    const timeoutMs = this.options.timeoutMs ?? 3000;
    const client = new pg.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: timeoutMs,
      keepAlive: true,
      application_name: this.options.applicationName ?? 'switchyard-change-feed',
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    client.on('notification', (message) => this.receive(message));
    try {
      this.client = client;
      await withTimeout(client.connect(), timeoutMs + 500, 'connect');
      await withTimeout(client.query(`LISTEN ${CHANGE_CHANNEL}`), timeoutMs, 'listen');
      // Live only once a notification is seen to arrive (LISTEN through a transaction-pooling proxy never does).
      await this.echo(client);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.closed || this.client !== client) {
      void client.end().catch(() => undefined);
      return;
    }
    this.live = true;
    this.attempts = 0;
    if (this.everConnected) {
      this.log('change feed: reconnected; caches revalidate what they hold');
      this.dispatcher.report((o) => o.reconnected?.());
    }
    this.everConnected = true;
    this.dispatcher.report((o) => o.stateChanged?.('live'));
    // Changes committed while nobody listened were missed: every cache revalidates once.
    this.dispatcher.dispatchAll();
    void this.send();
  }

  private receive(message: pg.Notification): void {
    if (message.channel !== CHANGE_CHANNEL) return;
    const ping = parsePing(message.payload);
    if (ping !== null) {
      this.echoes.get(ping)?.();
      return;
    }
    const change = parsePayload(message.payload);
    if (change === null) return;
    this.dispatcher.report((o) => o.received?.(change.topic));
    this.dispatcher.dispatch(change.topic, change.id);
  }

  private async probe(): Promise<void> {
    const client = this.client;
    if (!this.live || client === null || this.sending !== null) return;
    try {
      await this.echo(client);
    } catch (error) {
      this.lost(client, error);
    }
  }

  /** Notifies ourselves through the server and waits to hear it: the connection works end to end. */
  private async echo(client: pg.Client): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? 3000;
    const nonce = randomBytes(8).toString('hex');
    const heard = new Promise<void>((resolve) => this.echoes.set(nonce, resolve));
    try {
      await withTimeout(
        client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, pingPayload(nonce)]),
        timeoutMs,
        'probe',
      );
      await withTimeout(heard, timeoutMs, 'probe echo');
    } finally {
      this.echoes.delete(nonce);
    }
  }

  /** The connection `client` is gone, deaf or never came up: go down once, schedule a reconnection. */
  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    const wasLive = this.live;
    this.live = false;
    client.removeAllListeners('notification');
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    client.connection.stream.destroy();
    // Publishers stop waiting: what they sent stays queued and goes out after reconnecting.
    this.queue.releaseAll();
    if (this.closed) return;
    if (wasLive) {
      this.log('change feed: LISTEN connection lost; caches revalidate against the database until it is back', error);
      this.dispatcher.report((o) => o.stateChanged?.('down'));
      this.dispatcher.dispatchAll();
    } else if (this.attempts === 0 && !this.everConnected) {
      this.log('change feed: cannot connect yet; caches revalidate against the database meanwhile', error);
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer !== null) return;
    const min = this.options.backoffMinMs ?? 100;
    const max = this.options.backoffMaxMs ?? 5000;
    const base = Math.min(max, min * 2 ** Math.min(this.attempts, 16));
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }
}
