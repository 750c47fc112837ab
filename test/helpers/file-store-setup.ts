// Setup file of the vitest project "file-store" (vitest.config.ts): see file-store-check.ts.
import { afterAll, afterEach } from 'vitest';
import { closeStores, expectStoresOnDisk } from './file-store-check.js';

afterEach(expectStoresOnDisk);
afterAll(closeStores);
