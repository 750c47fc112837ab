import { describe, expect, it } from 'vitest';
import { uploadNameIn, uploadPath } from './paths.js';

describe('upload paths', () => {
  it('name the sandbox of a named sandbox, never the default', () => {
    expect(uploadPath('default', 'a.png')).toBe('/uploads/a.png');
    expect(uploadPath('ci-7', 'a.png')).toBe('/uploads/a.png?sandbox_id=ci-7');
  });

  it('read back the name of a URL in its own sandbox, or one that names none', () => {
    for (const id of ['default', 'ci-7']) {
      expect(uploadNameIn(id, `http://127.0.0.1:3000${uploadPath(id, 'a.png')}`)).toBe('a.png');
      expect(uploadNameIn(id, uploadPath(id, 'a.png'))).toBe('a.png');
      expect(uploadNameIn(id, 'https://sandbox.test/uploads/a.png')).toBe('a.png');
    }
  });

  it("refuse another sandbox's URL, other arguments and anything that is not an upload", () => {
    expect(uploadNameIn('ci-7', '/uploads/a.png?sandbox_id=ci-8')).toBeNull();
    expect(uploadNameIn('default', '/uploads/a.png?sandbox_id=ci-7')).toBeNull();
    expect(uploadNameIn('ci-7', '/uploads/a.png?sandbox_id=ci-7&sandbox_id=ci-8')).toBeNull();
    expect(uploadNameIn('ci-7', '/uploads/a.png?sandbox_id=ci-7&x=1')).toBeNull();
    for (const url of [
      'uploads/a.png',
      '/uploads/../db.json',
      '/uploads/a/b.png',
      'ftp://h/uploads/a.png',
      'http://[bad',
      '/docs',
    ])
      expect(uploadNameIn('default', url), url).toBeNull();
  });
});
