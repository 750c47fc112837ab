/**
 * The two reference servers of the bench, run as one child process: both answer every request
 * with the same listings-page bytes the sandbox sent. `node:http` writing a prepared buffer is the
 * limit for Node on this machine; Express 5 with no middleware calling `res.json` on a prepared
 * object is the ceiling of the framework the sandbox is built on.
 * Usage: node --import tsx bench/reference-servers.ts <file with the page bytes>
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const bytes = readFileSync(process.argv[2]);
const prepared = JSON.parse(bytes.toString('utf8')) as unknown;

const bare = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
  res.end(bytes);
});

const app = express();
app.get('/api/shop/listings', (_req, res) => {
  res.json(prepared);
});

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

const barePort = await listen(bare);
const expressPort = await listen(createServer(app));
process.stdout.write(`reference ready at http://127.0.0.1:${barePort} http://127.0.0.1:${expressPort}\n`);
