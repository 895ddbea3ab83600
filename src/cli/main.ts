#!/usr/bin/env node
import { createInterface } from 'node:readline/promises';
import { ConfigError, loadServerConfig } from '../config/env.js';
import { CliError, runCommand, type CliIo } from './commands.js';

/** A question on the terminal; only "y" or "yes" agrees. */
async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** The `switchyard` command. Exit codes: 0 ok, 1 failure, 2 bad usage or configuration. */
async function main(): Promise<void> {
  const io: CliIo = { out: (s) => process.stdout.write(s + '\n'), err: (s) => process.stderr.write(s + '\n') };
  try {
    const code = await runCommand(process.argv.slice(2), {
      env: process.env,
      io,
      loadConfig: loadServerConfig,
      // Without a terminal nobody can answer: commands that ask then need their --yes.
      confirm: process.stdin.isTTY ? confirm : undefined,
    });
    if (code !== null) process.exitCode = code;
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError) {
      io.err(`switchyard: ${error.message}`);
      process.exitCode = 2;
      return;
    }
    io.err(`switchyard: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

void main();
