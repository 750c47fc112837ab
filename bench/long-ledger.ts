import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

/** One wallet funded `total` times: the rate of the first and the last `window` acknowledgements. */
export interface LongLedger {
  total: number;
  window: number;
  connections: number;
  /** Acknowledged fundings a second over the first and the last window. */
  firstRps: number;
  lastRps: number;
  /** Bytes the sandbox process wrote per funding over each window (null off Linux). */
  firstBytes: number | null;
  lastBytes: number | null;
  /** Responses other than 200, and connection errors. */
  failed: number;
}

const EMAIL = 'buyer@sandbox.test';

/** Bytes the process has passed to write calls so far (`wchar`: change log, snapshots, responses). */
function writtenBytes(pid: number): number | null {
  try {
    const match = /^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * `total` acknowledged one-cent fundings of one wallet (`POST /__sandbox/wallets/{email}/fund`,
 * each answered once its flush is on disk), so the ledger grows by `total` entries while it is
 * measured. A commit that wrote whole collections slows down as the ledger grows; one that writes
 * what changed keeps its rate, so the last window's rate is compared with the first's.
 */
export async function measureLongLedger(
  base: string,
  pid: number,
  connections: number,
  total = 20_000,
  window = 1_000,
): Promise<LongLedger> {
  const acked: number[] = [];
  const bytes: (number | null)[] = [];
  let failed = 0;
  const mark = () => {
    const n = acked.length;
    if (n === 1 || n === window || n === total - window || n === total) bytes[n] = writtenBytes(pid);
  };
  const result = await autocannon({
    url: base,
    connections,
    amount: total,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: `/__sandbox/wallets/${encodeURIComponent(EMAIL)}/fund`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount_cents: 1 }),
        onResponse: (status: number) => {
          if (status !== 200) failed += 1;
          acked.push(performance.now());
          mark();
        },
      },
    ],
  });
  failed += result.errors;
  const rate = (from: number, to: number) => ((to - from) / (acked[to - 1] - acked[from - 1])) * 1000;
  const perFunding = (from: number, to: number) => {
    const [a, b] = [bytes[from], bytes[to]];
    return a == null || b == null ? null : (b - a) / (to - from);
  };
  return {
    total,
    window,
    connections,
    firstRps: rate(1, window),
    lastRps: rate(total - window, total),
    firstBytes: perFunding(1, window),
    lastBytes: perFunding(total - window, total),
    failed,
  };
}
