import { ApiError } from '../../contract/errors.js';
import { newId } from '../../world/ids.js';
import type { World } from '../../world/world.js';
import { sniffImage } from './magic.js';
import { MAX_FILE_BYTES, MAX_FILES, type ReceivedFile } from './receive.js';
import { MB, type Part, type UploadSpace } from './space.js';

/** A received file that passed every check. */
export interface AcceptedFile {
  part: Part;
  size: number;
  type: string;
  ext: string;
}

const mb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/** The 413 of a file that would take the sandbox over `--upload-quota`. */
export function quotaMessage(i: number, name: string, space: UploadSpace): string {
  return (
    `images[${i}] (${name}) would take this sandbox over its upload quota of ${mb(space.quotaBytes)} ` +
    `(--upload-quota; ${mb(space.usedBytes())} in use): reset it (POST /__sandbox/reset) or delete it ` +
    '(DELETE /__sandbox) to free the space'
  );
}

/** Checks every file before anything is stored; returns each file with its detected kind. */
export function checkFiles(files: ReceivedFile[], space: UploadSpace): AcceptedFile[] {
  const images = files.filter((f) => f.fieldname === 'images');
  if (images.length !== files.length)
    throw new ApiError(400, 'Send the files in the multipart field "images"');
  if (images.length === 0) throw new ApiError(400, 'body.images is required: send 1 to 10 image files');
  if (images.length > MAX_FILES)
    throw new ApiError(413, `At most ${MAX_FILES} images per upload, got ${images.length}`);
  return images.map((f, i) => {
    if (f.refused === 'size' || f.size > MAX_FILE_BYTES)
      throw new ApiError(413, `images[${i}] (${f.originalname}) is larger than 5 MB`);
    if (f.refused === 'quota') throw new ApiError(413, quotaMessage(i, f.originalname, space));
    const kind = sniffImage(f.head);
    if (!kind || !f.part)
      throw new ApiError(
        415,
        `images[${i}] (${f.originalname}) is not a JPEG, PNG, WebP or GIF image (checked by content)`,
      );
    return { part: f.part, size: f.size, ...kind };
  });
}

/**
 * Names the files, keeps them and records them, all or nothing: a failure removes what was kept.
 * Alone with the space's other keeps and its reset, so a record never outlives its file.
 */
export function storeUploads(
  world: World,
  space: UploadSpace,
  owner: string,
  files: AcceptedFile[],
): Promise<string[]> {
  return space.exclusive(async () => {
    const names = world.store.mutate((db) => files.map((f) => `${newId(db)}.${f.ext}`));
    const kept: string[] = [];
    try {
      for (const [i, f] of files.entries()) {
        await f.part.keep(names[i]);
        kept.push(names[i]);
      }
      const at = world.clock.nowIso();
      await world.store.commit((db) => {
        names.forEach((name, i) => {
          db.uploads[name] = {
            name,
            user_id: owner,
            content_type: files[i].type,
            size: files[i].size,
            created_at: at,
          };
        });
      });
      return names;
    } catch (err) {
      for (const name of kept) await space.remove(name);
      throw err;
    }
  });
}
