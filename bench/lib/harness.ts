/**
 * Shared benchmark plumbing: start a server script in its own process (it prints `READY <port> [extra]`
 * when listening), stop it, and load an HTTP route with autocannon.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64', '--initial-old-space-size=256', '--expose-gc'];

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

/** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

/** A process's CPU time (user + system) so far, ms, from /proc; NaN where /proc cannot be read. */
function cpuMsOf(pid: number): number {
  try {
    // Fields after the command's closing parenthesis (the command itself may hold one): state is the 3rd, utime the
    // 14th, stime the 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return NaN;
  }
}

/** Every PostgreSQL server process on this machine (the postmaster, backends, WAL writer…), from /proc. */
function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres');
        } catch {
          return false;
        }
      });
  } catch {
    return [];
  }
}

/**
 * CPU spent by the served app and by PostgreSQL (every postgres process on the machine, started or ended in the
 * window or not) from `start()` to `stop()`, ms: what a unit of work costs each, which a throughput on cores
 * shared with the bench's own client cannot show. A backend that ends inside the window takes its CPU with it
 * (the pool keeps its connections for the run).
 */
export function cpuMeter(served: ServedProcess) {
  const pid = served.child.pid!;
  let app = NaN;
  let pg = new Map<number, number>();
  let bench = process.cpuUsage();
  return {
    start() {
      app = cpuMsOf(pid);
      pg = new Map(postgresPids().map((p) => [p, cpuMsOf(p) || 0]));
      bench = process.cpuUsage();
    },
    /** CPU ms since `start`: the app's process, PostgreSQL's backends, and this bench process (the load's client). */
    stop(): { appMs: number; postgresMs: number; benchMs: number } {
      const postgresMs = postgresPids().reduce((sum, p) => sum + (cpuMsOf(p) || 0) - (pg.get(p) ?? 0), 0);
      const used = process.cpuUsage(bench);
      return { appMs: cpuMsOf(pid) - app, postgresMs, benchMs: (used.user + used.system) / 1000 };
    },
  };
}
