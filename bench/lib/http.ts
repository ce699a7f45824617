/**
 * A light HTTP client for load that a bench generates itself (not through autocannon): node:http over a keep-alive
 * agent. `fetch` (undici) costs ~0.5 ms of CPU a call on this machine; bench/post-trade's client made 3 calls a
 * deal and took 1.66 ms of CPU a deal that way, 14 % of the two cores the server and PostgreSQL under test share
 * with it. Answers are read whole, as text.
 */
import http from 'node:http';

export interface HttpAnswer {
  status: number;
  text: string;
}

export interface HttpClient {
  request(method: string, url: string, headers?: Record<string, string>, body?: string): Promise<HttpAnswer>;
  close(): void;
}

/** A client of `base` (`http://host:port`), up to `sockets` requests in flight (the rest queue in the agent). */
export function httpClient(base: string, sockets = 64): HttpClient {
  const { hostname, port } = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  return {
    request(method, url, headers = {}, body) {
      return new Promise<HttpAnswer>((resolve, reject) => {
        const payload = body === undefined ? undefined : Buffer.from(body);
        const outgoing = http.request(
          {
            agent,
            hostname,
            port,
            method,
            path: url,
            headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers,
          },
          (incoming) => {
            const chunks: Buffer[] = [];
            incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
            incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
            incoming.on('error', reject);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}
