import { beforeAll, describe, expect, it } from 'vitest';
import { catalogFixture } from '../../src/i18n/catalog-fixture.js';
import { lexicon } from '../../src/i18n/lexicon.js';
import {
  accounts,
  expectDetailedError,
  expectError,
  makeSandbox,
  type TestSandbox,
} from '../helpers/sandbox.js';
import { MB, uploadSpace } from '../../src/api/uploads/space.js';
import { PNG_1X1 } from './helpers.js';

let sb: TestSandbox;
const key = `Bearer ${accounts.seller.apiKey}`;
beforeAll(async () => {
  sb = await makeSandbox();
});

const create = (body: object, auth = key) =>
  sb.http.post('/api/shop/listings').set('Authorization', auth).send(body);
const upload = (files: { name: string; bytes: Buffer; type?: string }[], field = 'images') => {
  let req = sb.http.post('/api/shop/upload').set('Authorization', key);
  for (const f of files)
    req = req.attach(field, f.bytes, { filename: f.name, contentType: f.type ?? 'image/png' });
  return req;
};

describe('POST /api/shop/upload and GET /uploads/{name}', () => {
  it('stores images recognised by content and serves them back with their type', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const res = await upload([
      { name: 'a.png', bytes: PNG_1X1 },
      { name: 'b.jpg', bytes: gif, type: 'image/jpeg' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.urls).toHaveLength(2);
    const [png, gifUrl] = res.body.urls.map((u: string) => new URL(u).pathname);
    const back = await sb.http.get(png).buffer(true);
    expect(back.status).toBe(200);
    expect(back.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(back.body as Buffer, PNG_1X1)).toBe(0);
    expect((await sb.http.get(gifUrl)).headers['content-type']).toBe('image/gif');
  });

  it('serves deterministic PNG placeholders for seeded listings', async () => {
    const a = await sb.http.get('/uploads/seed-phones-1.png').buffer(true);
    const b = await sb.http.get('/uploads/seed-phones-1.png').buffer(true);
    expect(a.headers['content-type']).toBe('image/png');
    expect((a.body as Buffer).subarray(1, 4).toString()).toBe('PNG');
    expect(Buffer.compare(a.body as Buffer, b.body as Buffer)).toBe(0);
    expectError(await sb.http.get('/uploads/nope.png'), 404, 'Upload not found: nope.png');
    expectError(await sb.http.get('/uploads/..%2Fdb.json'), 400, /params.name/);
  });

  it('refuses a wrong kind (415), an oversize file (413), too many files (413), none (400), no credential (401)', async () => {
    expectError(
      await upload([{ name: 'x.png', bytes: Buffer.from('hello, not an image') }]),
      415,
      /images\[0\] \(x.png\) is not a JPEG, PNG, WebP or GIF/,
    );
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(5 * 1024 * 1024)]);
    expectError(await upload([{ name: 'big.png', bytes: big }]), 413, /larger than 5 MB/);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `${i}.png`, bytes: PNG_1X1 }));
    expectError(await upload(eleven), 413, /At most 10 images/);
    expectError(await sb.http.post('/api/shop/upload').set('Authorization', key).field('note', 'x'), 400);
    expectError(await upload([{ name: 'a.png', bytes: PNG_1X1 }], 'photo'), 400);
    expectError(await sb.http.post('/api/shop/upload').attach('images', PNG_1X1, 'a.png'), 401);
  });

  it('refuses a multipart body it cannot read with a 400 that says why, keeping nothing of it', async () => {
    const space = uploadSpace(sb.world, sb.deps.config.uploadQuotaMb * MB);
    const used = space.usedBytes();
    const part = (name: string) =>
      `--XYZ\r\nContent-Disposition: form-data; name="images"; filename="${name}"\r\n` +
      'Content-Type: image/png\r\n\r\n';
    const send = (body: string | Buffer, type = 'multipart/form-data; boundary=XYZ') =>
      sb.http.post('/api/shop/upload').set({ Authorization: key, 'Content-Type': type }).send(body);
    const cut = Buffer.concat([Buffer.from(part('a.png')), PNG_1X1]);
    expectError(
      await send(cut),
      400,
      'Malformed multipart body: the body ends before its closing boundary (cut short?)',
    );
    const whole = Buffer.concat([cut, Buffer.from('\r\n--XYZ--\r\n')]);
    expectError(
      await send(whole, 'multipart/form-data'),
      400,
      'Malformed multipart body: the Content-Type names no boundary',
    );
    expectError(await send(`--XYZ\r\n${'x'.repeat(20)}\r\n\r\nhello`), 400, /^Malformed multipart body: /);
    expect(space.usedBytes()).toBe(used);
    const ok = await send(whole);
    expect(ok.status, ok.text).toBe(201);
  });
});

describe('POST /api/shop/listings', () => {
  it('creates a listing with defaults, readable and searchable at once', async () => {
    const res = await create({
      type: 'mall',
      title: 'Red Zorblax Jacket',
      category: 'mens-clothing',
      price_cents: 4999,
      location_city: 'berlin',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Red Zorblax Jacket',
      currency: 'USD',
      accepted_currencies: ['USD'],
      quantity_available: 1,
      duration: '2weeks',
      is_featured: false,
      featured_payment_method: null,
      store_slug: 'sandbox-seller',
      location_country: 'DE',
    });
    expect(res.body.lat).toBeCloseTo(52.52, 1);
    const found = await sb.http.get('/api/shop/listings?q=zorblax');
    expect(found.body.listings.map((l: { id: string }) => l.id)).toEqual([res.body.id]);
    // Its English text is found whatever language is asked for.
    expect((await sb.http.get('/api/shop/listings?q=zorblax%20jacket&lang=de')).body.pagination.total).toBe(
      1,
    );
    const near = await sb.http.get('/api/shop/listings?q=zorblax&lat=52.5&lng=13.4&radius=20');
    expect(near.body.pagination.total).toBe(1);
    const store = await sb.http.get('/api/shop/stores/sandbox-seller?limit=1');
    expect(store.body.listings[0].id).toBe(res.body.id);
  });

  it('translates only whole known titles and sentences; anything else stays as written, never half translated', async () => {
    const known = lexicon().sentences;
    const [like, pickup] = [...known.values()].slice(1, 3);
    const kept = await create({
      type: 'classifieds',
      title: 'Red Zorblax Jacket',
      description: `${like.en} Comes with extra needles and the manual.`,
      category: 'mens-clothing',
      price_cents: 100,
    });
    const whole = await create({
      type: 'classifieds',
      title: 'Bicycle',
      description: `${like.en} ${pickup.en}`,
      category: 'bicycles',
      price_cents: 100,
    });
    const template = catalogFixture().templates[0];
    const copied = await create({
      type: 'mall',
      title: template.text.en.title,
      description: template.text.en.description,
      category: template.subcategory,
      price_cents: 100,
    });
    for (const lang of lexicon().codes) {
      const read = async (id: string) => (await sb.http.get(`/api/shop/listings/${id}?lang=${lang}`)).body;
      const a = await read(kept.body.id);
      expect(a.title, lang).toBe('Red Zorblax Jacket');
      expect(a.description, lang).toBe(`${like.en} Comes with extra needles and the manual.`);
      const b = await read(whole.body.id);
      const bicycle = lexicon().titles.get('bicycle')![lang];
      expect(b.title.toLowerCase(), lang).toBe(bicycle.toLowerCase());
      expect(b.description, lang).toContain(like[lang]);
      expect(b.description, lang).toContain(pickup[lang]);
      const c = await read(copied.body.id);
      expect(c.title, lang).toBe(template.text[lang].title);
      expect(c.description, lang).toBe(template.text[lang].description);
    }
    // A translated title is found in its language as well as in English.
    const fahrrad = lexicon().titles.get('bicycle')!.de;
    const byGerman = await sb.http.get(
      `/api/shop/listings?q=${encodeURIComponent(fahrrad)}&lang=de&limit=50`,
    );
    expect(byGerman.body.listings.map((l: { id: string }) => l.id)).toContain(whole.body.id);
  });

  it('accepts uploaded images and known currencies, refusing foreign ones', async () => {
    const up = await upload([{ name: 'a.png', bytes: PNG_1X1 }]);
    const url = up.body.urls[0] as string;
    const res = await create({
      type: 'auction',
      title: 'Antique Clock',
      category: 'antiques',
      price_cents: 100,
      currency: 'credit-eur',
      accepted_currencies: ['EUR', 'Credit-EUR'],
      quantity_available: 2,
      duration: '1day',
      images: [url],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.currency).toBe('Credit-EUR');
    expect(res.body.images.map((u: string) => new URL(u).pathname)).toEqual([new URL(url).pathname]);
    const other = `Bearer ${accounts.buyer.apiKey}`;
    expectError(
      await create({ type: 'mall', title: 'x', category: 'antiques', price_cents: 1, images: [url] }, other),
      400,
      /body.images\[0\] is not an image you uploaded/,
    );
    expectError(
      await create({
        type: 'mall',
        title: 'x',
        category: 'antiques',
        price_cents: 1,
        images: ['https://example.com/a.png'],
      }),
      400,
      /body.images\[0\]/,
    );
  });

  it('applies the price rules per type', async () => {
    for (const type of ['mall', 'classifieds', 'auction'])
      expectDetailedError(
        await create({ type, title: 'Chair', category: 'furniture' }),
        400,
        'Amount required',
        `body.price_cents is required for ${type} listings (0 for a free item)`,
      );
    const reverse = await create({ type: 'reverse_auction', title: 'Chair', category: 'furniture' });
    expect(reverse.status).toBe(201);
    expect(reverse.body.price_cents).toBe(0);
    const free = await create({ type: 'classifieds', title: 'Chair', category: 'furniture', price_cents: 0 });
    expect(free.body.price_cents).toBe(0);
  });

  it('validates category, currencies, featured fields and the body', async () => {
    const base = { type: 'mall', title: 'Chair', category: 'furniture', price_cents: 100 };
    expectError(
      await create({ ...base, category: 'nope' }),
      400,
      'body.category is not a known category slug: nope',
    );
    expectError(
      await create({ ...base, currency: 'XYZ' }),
      400,
      'body.currency is not a known currency code: XYZ',
    );
    expectError(
      await create({ ...base, accepted_currencies: ['USD', 'ABC'] }),
      400,
      /body.accepted_currencies\[1\]/,
    );
    expectError(
      await create({ ...base, is_featured: true }),
      400,
      /body.featured_payment_method is required when is_featured is true/,
    );
    expectError(
      await create({ ...base, featured_payment_method: 'credit_wallet' }),
      400,
      /only allowed together with is_featured: true/,
    );
    expectError(
      await create({ ...base, is_featured: false, featured_payment_method: 'subscription' }),
      400,
      /only allowed together/,
    );
    expectError(await create({ ...base, price_cents: -1 }), 400, /body.price_cents/);
    expectError(await create({ ...base, price_cents: 1.5 }), 400, /body.price_cents/);
    expectError(await create({ ...base, duration: '3days' }), 400, /body.duration/);
    expectError(await create({ ...base, type: 'barter' }), 400, /body.type/);
    expectError(await create({ ...base, extra: 1 }), 400, 'body.extra is not allowed');
    expectError(
      await create({ type: 'mall', category: 'furniture', price_cents: 1 }),
      400,
      'body.title is required',
    );
    expectError(await create(base, 'Bearer nope'), 401, 'Invalid or expired token');
    expectError(await sb.http.post('/api/shop/listings').send(base), 401);
  });

  it('stores a featuring request unfeatured until the money flow decides', async () => {
    const res = await create({
      type: 'mall',
      title: 'Lamp',
      category: 'decor',
      price_cents: 100,
      is_featured: true,
      featured_payment_method: 'payprovider',
    });
    expect(res.status).toBe(201);
    expect(res.body.is_featured).toBe(false);
  });
});
