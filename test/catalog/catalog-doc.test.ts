import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG_DOC, defaultPageSection, withSection } from '../../scripts/catalog-doc.js';

describe('docs/catalog.md', () => {
  it('shows page 1 of the default search as the default seed gives it (else run npm run docs:catalog)', async () => {
    const doc = readFileSync(CATALOG_DOC, 'utf8');
    const section = await defaultPageSection();
    expect(section).toMatch(/\| 12 \|/);
    expect(withSection(doc, section), 'docs/catalog.md is stale: npm run docs:catalog').toBe(doc);
  });
});
