import { CliError, runCommand } from '../../src/cli/commands.js';
import { ConfigError, loadServerConfig } from '../../src/config/env.js';

export interface CliResult {
  /** The exit code `switchyard` would end with (as src/cli/main.ts: usage errors 2, other throws 1). */
  code: number | null;
  out: string;
  err: string;
}

/**
 * Runs one `switchyard` command in this process (spawning the binary costs a Node start per
 * call; test/cli/cli.test.ts covers the binary itself). `confirm` answers interactive questions.
 */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  options: { confirm?: (question: string) => Promise<boolean> } = {},
): Promise<CliResult> {
  let out = '';
  let err = '';
  const io = { out: (s: string) => void (out += s + '\n'), err: (s: string) => void (err += s + '\n') };
  let code: number | null;
  try {
    code = await runCommand(args, {
      env: { ...process.env, ...env },
      io,
      loadConfig: loadServerConfig,
      confirm: options.confirm,
    });
  } catch (error) {
    err += error instanceof Error ? error.message : String(error);
    code = error instanceof CliError || error instanceof ConfigError ? 2 : 1;
  }
  return { code, out, err };
}
