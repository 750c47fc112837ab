import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../../src/cli/args.js';
import type { Config } from '../../src/process/config.js';
import { assertContract } from '../helpers/contract-check.js';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { PNG_1X1 } from '../catalog/helpers.js';

// Issue 14, Resources: "Uploads have no quota" (docs/security.md T18 has the figures).
// Uploads stream to disk as they arrive, and each sandbox holds at most --upload-quota.

const key = `Bearer ${accounts.seller.apiKey}`;
const KB = 1024;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-upload-quota-'));
  dirs.push(dir);
  return dir;
}

const png = (bytes: number) => Buffer.concat([PNG_1X1, Buffer.alloc(bytes - PNG_1X1.length, 7)]);

const upload = (sb: TestSandbox, bytes: Buffer, sandboxId = 'q') =>
  sb.http
    .post('/api/shop/upload')
    .set('Authorization', key)
    .set('X-Sandbox-Id', sandboxId)
    .attach('images', bytes, { filename: 'big.png', contentType: 'image/png' });

const QUOTA_413 =
  /^images\[0\] \(big\.png\) would take this sandbox over its upload quota of 1 MB \(--upload-quota; [\d.]+ MB in use\)/;

function filesIn(dir: string): { name: string; size: number }[] {
  try {
    return readdirSync(dir).map((name) => ({ name, size: statSync(join(dir, name)).size }));
  } catch {
    return [];
  }
}

describe('--upload-quota', () => {
  it('is a flag and an environment variable, 100 MB by default, at least 1', () => {
    expect(parseCli([], {}).config.uploadQuotaMb).toBe(100);
    expect(parseCli(['--upload-quota', '5'], {}).config.uploadQuotaMb).toBe(5);
    expect(parseCli([], { SANDBOX_UPLOAD_QUOTA: '7' }).config.uploadQuotaMb).toBe(7);
    expect(() => parseCli(['--upload-quota', '0'], {})).toThrow(UsageError);
    expect(() => parseCli(['--upload-quota', '1.5'], {})).toThrow(UsageError);
  });

  it('refuses with 413 naming the quota a file that would pass it, stores nothing of that request, and a reset frees it', async () => {
    const sb = await makeSandbox({ uploadQuotaMb: 1 });
    expect((await upload(sb, png(600 * KB))).status).toBe(201);
    const world = await sb.worlds.open('q');
    const before = Object.keys(world.store.db.uploads).length;
    expectError(await upload(sb, png(600 * KB)), 413, QUOTA_413);
    expect(Object.keys(world.store.db.uploads)).toHaveLength(before);
    // Each sandbox has its own quota.
    expect((await upload(sb, png(600 * KB), 'other')).status).toBe(201);
    await sb.http.post('/__sandbox/reset').set('X-Sandbox-Id', 'q');
    expect((await upload(sb, png(600 * KB))).status).toBe(201);
  });

  it('holds under parallel uploads: the ones that fit are stored, never more than the quota, and every refusal is the quota 413', async () => {
    const dir = tempDir();
    const sb = await makeSandbox({ uploadQuotaMb: 1, inMemory: false, dataFile: join(dir, 'db.json') });
    const results = await Promise.all(Array.from({ length: 6 }, () => upload(sb, png(300 * KB))));
    for (const res of results) {
      if (res.status !== 201) expectError(res, 413, QUOTA_413);
    }
    // Each request sets its whole size aside at its first file: the three that fit get through,
    // rather than all six taking a share and failing together.
    const stored = results.filter((r) => r.status === 201).length;
    expect(stored).toBe(3);
    const onDisk = filesIn(join(dir, 'sandboxes', 'q.uploads'));
    expect(onDisk.map((f) => f.name).filter((n) => n.endsWith('.part'))).toEqual([]);
    expect(onDisk).toHaveLength(stored);
    expect(onDisk.reduce((sum, f) => sum + f.size, 0)).toBeLessThanOrEqual(1024 * KB);
  });
});

describe('uploads stream to disk', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((server) => server.close()));

  /** A sandbox on a real port, and an upload whose body the test sends piece by piece. */
  async function slowUploads(config: Partial<Config>) {
    const dir = tempDir();
    const sb = await makeSandbox({ inMemory: false, dataFile: join(dir, 'db.json'), ...config });
    const server = createServer(sb.app).listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const boundary = 'sandbox-boundary';
    const start = () => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/shop/upload',
        headers: { authorization: key, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            const url = '/api/shop/upload';
            assertContract({ method: 'POST', url, status, headers: res.headers, text: body }).then(
              () => resolve({ status, body }),
              reject,
            );
          });
        });
        req.on('error', reject);
      });
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="slow.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      );
      const end = (last: Buffer) => req.end(`${last.toString('latin1')}\r\n--${boundary}--\r\n`, 'latin1');
      return { req, answer, end };
    };
    const parts = () => filesIn(join(dir, 'uploads')).filter((f) => f.name.endsWith('.part'));
    /** Waits (at most 10 s) until a part file on disk holds `bytes`. */
    const partReaches = async (bytes: number) => {
      const deadline = Date.now() + 10_000;
      while (!parts().some((f) => f.size >= bytes) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      return parts().some((f) => f.size >= bytes);
    };
    return { sb, dir, start, parts, partReaches };
  }

  it('writes a file while it arrives, never holding the whole body in memory', async () => {
    const { dir, start, partReaches } = await slowUploads({});
    const upload = start();
    upload.req.write(png(2048 * KB));
    // Most of the file sent, the request still open: its bytes must already be on disk.
    expect(await partReaches(1024 * KB)).toBe(true);
    upload.end(Buffer.alloc(1024, 1));
    const res = await upload.answer;
    expect(res.status, res.body).toBe(201);
    expect(filesIn(join(dir, 'uploads')).map((f) => f.size)).toEqual([2048 * KB + 1024]);
  });

  it('leaves nothing of a client that goes away mid-upload, and gives its share of the quota back', async () => {
    const { sb, start, parts, partReaches } = await slowUploads({ uploadQuotaMb: 2 });
    const upload = start();
    upload.answer.catch(() => undefined);
    upload.req.write(png(1024 * KB));
    expect(await partReaches(1024 * KB)).toBe(true);
    upload.req.destroy();
    const deadline = Date.now() + 10_000;
    while (parts().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(parts()).toEqual([]);
    const res = await sb.http
      .post('/api/shop/upload')
      .set('Authorization', key)
      .attach('images', png(1900 * KB), { filename: 'big.png', contentType: 'image/png' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('reads away a file over 5 MB without storing it: 413, and no part left on disk', async () => {
    const dir = tempDir();
    const sb = await makeSandbox({ inMemory: false, dataFile: join(dir, 'db.json') });
    const res = await upload(sb, png(6 * 1024 * KB), 'big');
    expectError(res, 413, 'images[0] (big.png) is larger than 5 MB');
    expect(filesIn(join(dir, 'sandboxes', 'big.uploads'))).toEqual([]);
  });
});
