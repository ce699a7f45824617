#!/usr/bin/env node
/**
 * POSITIVE CONTROL for the SQL-injection scan (RELIABILITY #22): a deliberately vulnerable HTTP
 * endpoint that builds SQL by string concatenation against a throwaway PostgreSQL database. The scan
 * must find it injectable; if it does not, the scan's "not injectable" verdicts on Dart mean nothing.
 * Never part of the app. Usage: node scripts/security/injectable-control.mjs <port> <database url>
 */
import http from 'node:http';
import pg from 'pg';

const [port, url] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 4 });
await pool.query('CREATE TABLE IF NOT EXISTS control_bonds (isin text primary key, name text)');
await pool.query(`INSERT INTO control_bonds VALUES ('INE002A08534', 'Control bond') ON CONFLICT DO NOTHING`);
http
  .createServer(async (request, response) => {
    const isin = new URL(request.url ?? '/', 'http://x').searchParams.get('isin') ?? '';
    try {
      // Vulnerable on purpose: the value is pasted into the SQL text.
      const result = await pool.query(`SELECT name FROM control_bonds WHERE isin = '${isin}'`);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result.rows));
    } catch {
      response.writeHead(500).end('error');
    }
  })
  .listen(Number(port), '127.0.0.1');
