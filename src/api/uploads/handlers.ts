import { pipeline } from 'node:stream/promises';
import type { AppDeps } from '../../app/deps.js';
import { userId } from '../../stages/principal.js';
import { ApiError } from '../../contract/errors.js';
import type { Handlers } from '../../contract/handler.js';
import { baseUrl } from '../base-url.js';
import { worldNamedBy } from '../../world/sandbox-query.js';
import { typeOfName } from './magic.js';
import { uploadPath } from './paths.js';
import { placeholderPng } from './placeholder.js';
import { receivedFiles } from './receive.js';
import { checkFiles, storeUploads } from './service.js';
import { MB, uploadSpace } from './space.js';

/** Names of the seeded listings' placeholder images (drawn on request, never stored). */
export const PLACEHOLDER_NAME = /^seed-[a-z0-9-]+-\d+\.png$/;

const placeholders = new Map<string, Buffer>();

const IMAGE_HEADERS = { 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' };

export function uploadHandlers(deps: AppDeps) {
  const quotaBytes = deps.config.uploadQuotaMb * MB;
  return {
    uploadImages: async (req, res) => {
      const owner = userId(req);
      const files = receivedFiles(req);
      const { world } = req;
      const space = uploadSpace(world, quotaBytes);
      try {
        const names = await storeUploads(world, space, owner, checkFiles(files, space));
        const base = baseUrl(req);
        res.status(201).json({ urls: names.map((name) => base + uploadPath(world.id, name)) });
      } finally {
        // Refused or failed: nothing of the request stays (a kept part is not dropped).
        await Promise.all(files.map((f) => f.part?.drop()));
      }
    },
    getUpload: async (req, res) => {
      const { name } = req.params;
      if (PLACEHOLDER_NAME.test(name)) {
        const bytes = placeholders.get(name) ?? placeholderPng(name);
        if (placeholders.size < 1000) placeholders.set(name, bytes);
        res.set({ 'Content-Type': 'image/png', ...IMAGE_HEADERS });
        res.send(bytes);
        return;
      }
      const world = await worldNamedBy(deps.worlds, req.world, req.query.sandbox_id);
      const record = world.store.db.uploads[name];
      const type = record?.content_type ?? typeOfName(name);
      const file = record && type ? await uploadSpace(world, quotaBytes).read(name) : undefined;
      if (!file || !type) throw new ApiError(404, `Upload not found: ${name}`);
      res.set({ 'Content-Type': type, 'Content-Length': String(file.size), ...IMAGE_HEADERS });
      // Streamed, never read whole; a client that goes away mid-image is no error of ours.
      await pipeline(file.stream(), res).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE')
          deps.log.warn({ err, name }, 'sending an upload failed');
        res.destroy();
      });
    },
  } satisfies Handlers;
}
