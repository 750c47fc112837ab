import type { AppDeps } from '../../app/deps.js';
import { userId } from '../../http/auth.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../world/ids.js';
import type { Handlers } from '../../http/handler.js';
import { baseUrl } from '../../http/base-url.js';
import { sniffImage, typeOfName } from './magic.js';
import { placeholderPng } from './placeholder.js';
import { uploadStorage } from './storage.js';

export const MAX_FILES = 10;
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Names of the seeded listings' placeholder images (drawn on request, never stored). */
export const PLACEHOLDER_NAME = /^seed-[a-z0-9-]+-\d+\.png$/;

interface UploadedFile {
  fieldname: string;
  originalname: string;
  buffer: Buffer;
  size: number;
}

/** Checks every file before anything is stored; returns each file's detected kind. */
export function checkFiles(files: UploadedFile[]): { type: string; ext: string }[] {
  const images = files.filter((f) => f.fieldname === 'images');
  if (images.length !== files.length)
    throw new ApiError(400, 'Send the files in the multipart field "images"');
  if (images.length === 0) throw new ApiError(400, 'body.images is required: send 1 to 10 image files');
  if (images.length > MAX_FILES)
    throw new ApiError(413, `At most ${MAX_FILES} images per upload, got ${images.length}`);
  return images.map((f, i) => {
    if (f.size > MAX_FILE_BYTES)
      throw new ApiError(413, `images[${i}] (${f.originalname}) is larger than 5 MB`);
    const kind = sniffImage(f.buffer);
    if (!kind)
      throw new ApiError(
        415,
        `images[${i}] (${f.originalname}) is not a JPEG, PNG, WebP or GIF image (checked by content)`,
      );
    return kind;
  });
}

const placeholders = new Map<string, Buffer>();

export function uploadHandlers(_deps: AppDeps) {
  return {
    uploadImages: async (req, res) => {
      const owner = userId(req);
      const files = (Array.isArray(req.files) ? req.files : []) as UploadedFile[];
      const kinds = checkFiles(files);
      const world = req.world;
      const names = world.store.mutate((db) => kinds.map((k) => `${newId(db)}.${k.ext}`));
      const storage = uploadStorage(world);
      await Promise.all(names.map((name, i) => storage.put(name, files[i].buffer)));
      const at = world.clock.nowIso();
      await world.store.commit((db) => {
        names.forEach((name, i) => {
          db.uploads[name] = {
            name,
            user_id: owner,
            content_type: kinds[i].type,
            size: files[i].size,
            created_at: at,
          };
        });
      });
      const base = baseUrl(req);
      res.status(201).json({ urls: names.map((name) => `${base}/uploads/${name}`) });
    },
    getUpload: async (req, res) => {
      const { name } = req.params;
      let bytes: Buffer | undefined;
      let type: string | undefined;
      if (PLACEHOLDER_NAME.test(name)) {
        bytes = placeholders.get(name) ?? placeholderPng(name);
        if (placeholders.size < 1000) placeholders.set(name, bytes);
        type = 'image/png';
      } else if (req.world.store.db.uploads[name]) {
        bytes = await uploadStorage(req.world).get(name);
        type = req.world.store.db.uploads[name]?.content_type ?? typeOfName(name);
      }
      if (!bytes || !type) throw new ApiError(404, `Upload not found: ${name}`);
      res.set({
        'Content-Type': type,
        'Cache-Control': 'public, max-age=3600',
        'X-Content-Type-Options': 'nosniff',
      });
      res.send(bytes);
    },
  } satisfies Handlers;
}
