import { createServer, type Server } from 'node:http';
import fc from 'fast-check';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../src/http/auth.js';
import { answerClientErrors } from '../../src/http/client-errors.js';
import { checked } from '../helpers/checked-clients.js';
import { accounts, makeSandbox, TEST_JWT_SECRET, type TestSandbox } from '../helpers/sandbox.js';
import {
  hostileKeys,
  junk,
  specOperations,
  valueArb,
  withKey,
  type SpecOperation,
} from './fuzz-arbitraries.js';

/**
 * Fuzzing from the contract: for every operation of openapi.yaml (iterated, so operations added
 * later are covered without touching this file), FUZZ_RUNS generated requests, valid and
 * invalid, with and without credentials. Never a 5xx; every 4xx is exactly `{error: string}`;
 * every answer matches the spec (the client checks each one, checked-clients.ts); the server
 * keeps answering; nothing pollutes Object.prototype.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

type AuthKind = 'none' | 'jwt' | 'apikey' | 'apikey-query' | 'guest' | 'garbage' | 'alg-none';
const authKinds = fc.constantFrom<AuthKind>(
  'none',
  'jwt',
  'apikey',
  'apikey-query',
  'guest',
  'garbage',
  'alg-none',
);

interface FuzzRequest {
  path: string;
  query: string[];
  body:
    { kind: 'none' } | { kind: 'json'; text: string } | { kind: 'files'; field: string; files: FuzzFile[] };
  auth: AuthKind;
}
interface FuzzFile {
  name: string;
  type: string;
  size: number;
}

const hostilePathSegment = fc.constantFrom(
  '..%2F..%2Fpackage.json',
  '%2e%2e',
  '%00',
  'x'.repeat(3000),
  '%F0%9F%98%80',
);

function pathArb(op: SpecOperation): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === 'path');
  const parts = params.map((p) =>
    fc.oneof(
      { weight: 3, arbitrary: valueArb(p.schema).map((v) => encodeURIComponent(String(v))) },
      { weight: 1, arbitrary: fc.string({ minLength: 1 }).map(encodeURIComponent) },
      { weight: 1, arbitrary: hostilePathSegment },
    ),
  );
  return fc.tuple(...parts).map((values) => {
    let path = op.path;
    params.forEach((p, i) => (path = path.replace(`{${p.name}}`, values[i])));
    return path;
  });
}

function queryValue(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap(queryValue);
  if (typeof v === 'object' && v !== null) return [JSON.stringify(v)];
  return [String(v)];
}

function queryArb(op: SpecOperation): fc.Arbitrary<string[]> {
  const params = op.parameters.filter((p) => p.in === 'query');
  const each = params.map((p) =>
    fc
      .option(fc.oneof({ weight: 3, arbitrary: valueArb(p.schema) }, { weight: 1, arbitrary: junk }), {
        freq: 2,
      })
      .map((v) => (v === null ? [] : queryValue(v).map((x) => `${p.name}=${encodeURIComponent(x)}`))),
  );
  const extra = fc.constantFrom(
    [],
    [],
    [],
    [],
    [],
    [],
    ['__proto__[polluted]=1'],
    ['constructor[prototype][polluted]=1'],
    ['unknown_param=1'],
    ['a[b][c]=d'],
  );
  return fc.tuple(extra, ...each).map((lists) => lists.flat());
}

function jsonBodyArb(op: SpecOperation): fc.Arbitrary<FuzzRequest['body']> {
  const valid = valueArb(op.body?.schema);
  const props = Object.keys(op.body?.schema.properties ?? {});
  const mutated = fc.oneof(
    { weight: 4, arbitrary: valid },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...props, 'x')).map(([v, k]) => {
        if (typeof v !== 'object' || v === null) return v;
        const copy = { ...(v as Record<string, unknown>) };
        delete copy[k];
        return copy;
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...props, 'x'), junk).map(([v, k, j]) => withKey(v, k, j)),
    },
    { weight: 2, arbitrary: fc.tuple(valid, hostileKeys, junk).map(([v, k, j]) => withKey(v, k, j)) },
    { weight: 1, arbitrary: junk },
  );
  return fc.oneof(
    {
      weight: 12,
      arbitrary: mutated.map((v) => ({ kind: 'json' as const, text: JSON.stringify(v) ?? 'null' })),
    },
    { weight: 1, arbitrary: fc.string().map((text) => ({ kind: 'json' as const, text })) },
    {
      weight: 1,
      arbitrary: fc.constant({ kind: 'json' as const, text: `{"a":"${'x'.repeat(1_100_000)}"}` }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  );
}

function filesBodyArb(): fc.Arbitrary<FuzzRequest['body']> {
  const file = fc.record({
    name: fc.constantFrom('a.png', '../../evil.png', 'x.jpg', 'noext', 'a.svg', '%00.gif', 'ü.webp'),
    type: fc.constantFrom(
      'image/png',
      'image/jpeg',
      'text/html',
      'application/octet-stream',
      'image/svg+xml',
    ),
    size: fc.constantFrom(0, 10, 1000, 6 * 1024 * 1024),
  });
  return fc.record({
    kind: fc.constant('files' as const),
    field: fc.constantFrom('images', 'images', 'other'),
    files: fc.array(file, { maxLength: 12 }),
  });
}

function requestArb(op: SpecOperation): fc.Arbitrary<FuzzRequest> {
  const body: fc.Arbitrary<FuzzRequest['body']> = !op.body
    ? fc.oneof(
        { weight: 5, arbitrary: fc.constant({ kind: 'none' as const }) },
        {
          weight: 1,
          arbitrary: junk.map((v) => ({ kind: 'json' as const, text: JSON.stringify(v) ?? 'null' })),
        },
      )
    : op.body.type.startsWith('multipart/')
      ? fc.oneof(filesBodyArb(), jsonBodyArb(op))
      : jsonBodyArb(op);
  return fc.record({ path: pathArb(op), query: queryArb(op), body, auth: authKinds });
}

const ALG_NONE =
  Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url') +
  '.' +
  Buffer.from('{"sub":"x","typ":"user","sbx":"default","iat":1,"exp":9999999999}').toString('base64url') +
  '.';

describe('fuzzing every operation of openapi.yaml', () => {
  let sb: TestSandbox;
  let server: Server;
  let http: ReturnType<typeof supertest>;
  let lastError: unknown;
  let creds: { jwt: string; guest: string };
  const statuses = new Map<string, Record<number, number>>();

  afterAll(() => {
    server.close();
    // The spread of answers, so a run shows it reached the handlers and not only the validator.
    const lines = [...statuses].map(([id, s]) => `${id}: ${JSON.stringify(s)}`);
    process.stdout.write(`fuzz statuses (${RUNS} runs per operation)\n${lines.join('\n')}\n`);
  });

  beforeAll(async () => {
    sb = await makeSandbox();
    // Through a real server with the CLI's client-error answers (requests Node refuses itself).
    server = answerClientErrors(createServer(sb.app));
    http = checked(supertest(server));
    // The error handler reads deps.log when it logs: capture the crash behind any 500.
    sb.deps.log = { error: (obj: unknown) => (lastError = obj) } as unknown as typeof sb.deps.log;
  });

  async function send(op: SpecOperation, r: FuzzRequest) {
    const query = [...r.query];
    if (r.auth === 'apikey-query') query.push(`api_key=${accounts.buyer.apiKey}`);
    const url = r.path + (query.length ? `?${query.join('&')}` : '');
    let t = http[op.method as 'get'](url);
    if (r.auth === 'jwt') t = t.set('authorization', `Bearer ${creds.jwt}`);
    if (r.auth === 'apikey') t = t.set('authorization', `Bearer ${accounts.buyer.apiKey}`);
    if (r.auth === 'guest') t = t.set('x-guest-token', creds.guest);
    if (r.auth === 'garbage') t = t.set('authorization', 'Bearer not.a.token');
    if (r.auth === 'alg-none') t = t.set('authorization', `Bearer ${ALG_NONE}`);
    if (r.body.kind === 'json') t = t.set('content-type', 'application/json').send(r.body.text);
    if (r.body.kind === 'files')
      for (const f of r.body.files)
        t = t.attach(r.body.field, Buffer.alloc(f.size, 1), { filename: f.name, contentType: f.type });
    return t;
  }

  const ops = specOperations();
  it('covers every operation of the spec', () => {
    expect(ops.length).toBeGreaterThan(10);
  });

  for (const op of ops) {
    it(`${op.method.toUpperCase()} ${op.path} (${op.operationId})`, { timeout: 120_000 }, async () => {
      await sb.world.reset();
      const buyer = Object.values(sb.world.store.db.users).find((u) => u.email === accounts.buyer.email);
      creds = {
        jwt: signToken(sb.world, TEST_JWT_SECRET, buyer?.id ?? 'none', 'user'),
        guest: signToken(sb.world, TEST_JWT_SECRET, 'fuzz-guest', 'guest'),
      };
      await fc.assert(
        fc.asyncProperty(requestArb(op), async (r) => {
          lastError = undefined;
          const res = await send(op, r);
          const counts = statuses.get(op.operationId) ?? {};
          counts[res.status] = (counts[res.status] ?? 0) + 1;
          statuses.set(op.operationId, counts);
          const what = `${op.method.toUpperCase()} ${r.path} -> ${res.status} ${res.text.slice(0, 300)}`;
          expect(
            res.status,
            `${what}\n${String((lastError as { err?: Error })?.err?.stack ?? '')}`,
          ).toBeLessThan(500);
          if (res.status >= 400) {
            expect(Object.keys(res.body as object), what).toEqual(['error']);
            expect(typeof (res.body as { error: unknown }).error, what).toBe('string');
          }
          expect(Object.keys(Object.prototype), 'Object.prototype polluted').toEqual([]);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      expect((await http.get('/__sandbox/health')).status).toBe(200);
    });
  }
});
