/**
 * Shared benchmark plumbing: start a server script in its own process (it prints `READY <port> [extra]`
 * when listening), stop it, and load an HTTP route with autocannon.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const BENCH_DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
export const BENCH_CONNECTIONS = 10;

export interface ServedProcess {
  port: number;
  /** Whatever the script printed after its port (e.g. a seeding time). */
  extra: string;
  child: ChildProcess;
}

/** The server's V8 flags as `npm start` gives them (package.json "start"; apps/server/README.md "Runtime"). */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64', '--initial-old-space-size=256'];

/** Starts `node <SERVER_NODE_FLAGS> <nodeFlags> --import tsx <script>` and resolves once it prints `READY <port>`. */
export function serveScript(script: string, env: NodeJS.ProcessEnv = {}, nodeFlags: readonly string[] = []): Promise<ServedProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...SERVER_NODE_FLAGS,
        ...nodeFlags,
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
        '--import',
        'tsx',
        script,
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\d+) ?(\S*)/.exec(out);
      if (match) resolve({ port: Number(match[1]), extra: match[2] ?? '', child });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** SIGTERM, then wait for the exit (at most 5 s). */
export function stopProcess(served: ServedProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    served.child.once('exit', () => resolve());
    served.child.kill('SIGTERM');
    setTimeout(resolve, 5000).unref();
  });
}

/** Loads one URL with autocannon; any non-2xx or error fails the benchmark. */
export async function loadRoute(url: string, headers: Record<string, string> = {}, duration = BENCH_DURATION_S) {
  const result = await autocannon({ url, connections: BENCH_CONNECTIONS, duration, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50 };
}
