import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accounts, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { PNG_1X1 } from '../catalog/helpers.js';

// Issue 14, Access: "Uploads leak between sandboxes". Each sandbox has its own uploads; the URL a
// sandbox hands out serves that sandbox's bytes even without X-Sandbox-Id (a browser loading the
// image); a reset or DELETE /__sandbox removes them.

const key = `Bearer ${accounts.seller.apiKey}`;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-upload-iso-'));
  dirs.push(dir);
  return dir;
}

/** A PNG whose bytes say which sandbox stored it (the kind is read from the first bytes only). */
const pngOf = (label: string) => Buffer.concat([PNG_1X1, Buffer.from(`stored by ${label}`)]);

async function upload(sb: TestSandbox, sandboxId: string | undefined, bytes: Buffer): Promise<string> {
  let req = sb.http.post('/api/shop/upload').set('Authorization', key);
  if (sandboxId) req = req.set('X-Sandbox-Id', sandboxId);
  const res = await req.attach('images', bytes, { filename: 'a.png', contentType: 'image/png' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const url = new URL(res.body.urls[0] as string);
  return url.pathname + url.search;
}

async function fetchBytes(sb: TestSandbox, path: string, sandboxId?: string) {
  let req = sb.http.get(path);
  if (sandboxId) req = req.set('X-Sandbox-Id', sandboxId);
  const res = await req.buffer(true);
  return { status: res.status, bytes: res.body as Buffer };
}

const stores = [
  { name: 'memory', config: () => ({}) },
  { name: 'file', config: () => ({ inMemory: false, dataFile: join(tempDir(), 'db.json') }) },
];

describe.each(stores)('uploads on a $name store', ({ config }) => {
  it('serves each sandbox its own bytes at the URL it handed out, with or without X-Sandbox-Id', async () => {
    const sb = await makeSandbox(config());
    const url = {
      a: await upload(sb, 'a', pngOf('a')),
      b: await upload(sb, 'b', pngOf('b')),
      default: await upload(sb, undefined, pngOf('default')),
    };
    for (const [owner, path] of Object.entries(url)) {
      for (const header of [undefined, 'a', 'b', 'default']) {
        const got = await fetchBytes(sb, path, header);
        const wanted = owner !== 'default' || header === undefined || header === 'default';
        if (wanted) {
          expect(got.status, `${path} with ${header}`).toBe(200);
          expect(got.bytes.equals(pngOf(owner)), `${path} with ${header}`).toBe(true);
        } else {
          // The default's URL names no sandbox: the header's sandbox answers, never with the default's bytes.
          expect(got.status === 404 || !got.bytes.equals(pngOf('default')), `${path} with ${header}`).toBe(
            true,
          );
        }
      }
    }
    expect(url.a).toMatch(/^\/uploads\/[A-Za-z0-9._-]+\?sandbox_id=a$/);
    expect(url.default).toMatch(/^\/uploads\/[A-Za-z0-9._-]+$/);
  });

  it("shows a named sandbox's listing images with URLs that name it, and refuses another sandbox's URL", async () => {
    const sb = await makeSandbox(config());
    const own = await upload(sb, 'shop', pngOf('shop'));
    const foreign = await upload(sb, 'other', pngOf('other'));
    const create = (images: string[]) =>
      sb.http
        .post('/api/shop/listings')
        .set('Authorization', key)
        .set('X-Sandbox-Id', 'shop')
        .send({ type: 'mall', title: 'Lamp', category: 'decor', price_cents: 100, images });
    const refused = await create([`http://127.0.0.1${foreign}`]);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/body\.images\[0\] is not an image you uploaded/);
    const made = await create([`http://127.0.0.1${own}`]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const shown = await sb.http.get(`/api/shop/listings/${made.body.id}`).set('X-Sandbox-Id', 'shop');
    const image = new URL(shown.body.images[0] as string);
    expect(image.search).toBe('?sandbox_id=shop');
    const got = await fetchBytes(sb, image.pathname + image.search);
    expect(got.bytes.equals(pngOf('shop'))).toBe(true);
  });

  it('removes the uploads of a sandbox that is reset or deleted, and its URLs answer 404', async () => {
    const sb = await makeSandbox(config());
    const reset = await upload(sb, 'r', pngOf('r'));
    const kept = await upload(sb, 'k', pngOf('k'));
    expect((await sb.http.post('/__sandbox/reset').set('X-Sandbox-Id', 'r')).status).toBe(200);
    expect((await fetchBytes(sb, reset)).status).toBe(404);
    const deleted = await upload(sb, 'd', pngOf('d'));
    expect((await sb.http.delete('/__sandbox').set('X-Sandbox-Id', 'd')).status).toBe(200);
    expect((await fetchBytes(sb, deleted)).status).toBe(404);
    const other = await fetchBytes(sb, kept);
    expect(other.bytes.equals(pngOf('k'))).toBe(true);
  });
});

describe('uploads on disk', () => {
  it('keeps each sandbox in a directory of its own and empties it on reset; DELETE removes it', async () => {
    const dir = tempDir();
    const sb = await makeSandbox({ inMemory: false, dataFile: join(dir, 'db.json') });
    await upload(sb, 'Job-A', pngOf('Job-A'));
    await upload(sb, 'job-a', pngOf('job-a'));
    await upload(sb, undefined, pngOf('default'));
    const files = (sub: string) => readdirSync(join(dir, sub));
    expect(files('sandboxes/+job-+a.uploads')).toHaveLength(1);
    expect(files('sandboxes/job-a.uploads')).toHaveLength(1);
    expect(files('uploads')).toHaveLength(1);

    await sb.http.post('/__sandbox/reset').set('X-Sandbox-Id', 'Job-A');
    expect(files('sandboxes/+job-+a.uploads')).toEqual([]);
    expect(files('sandboxes/job-a.uploads')).toHaveLength(1);
    await sb.http.delete('/__sandbox').set('X-Sandbox-Id', 'job-a');
    expect(readdirSync(join(dir, 'sandboxes'))).not.toContain('job-a.uploads');
    await sb.http.post('/__sandbox/reset');
    expect(files('uploads')).toEqual([]);
  });
});
