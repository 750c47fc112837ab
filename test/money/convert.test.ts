import { describe, expect, it } from 'vitest';
import {
  displayAmount,
  fromUsdCents,
  platformFeeCents,
  roundCents,
  toUsdCents,
} from '../../src/api/wallet/convert.js';
import type { RateTable } from '../../src/api/wallet/rates.js';

const table: RateTable = {
  updatedAt: '2026-01-01T00:00:00.000Z',
  rates: new Map([
    ['USD', 1],
    ['Credit-USD', 1],
    ['EUR', 0.92],
    ['Credit-EUR', 0.92],
    ['JPY', 150],
    ['BTC', 0.0000105],
    ['Credit-BTC', 0.0000105],
  ]),
};

describe('conversion rounding (one module, half up to integer cents)', () => {
  it('rounds half up', () => {
    expect(roundCents(12.5)).toBe(13);
    expect(roundCents(12.4999)).toBe(12);
    expect(roundCents(0)).toBe(0);
    expect(roundCents(50.49999999999999)).toBe(51); // float noise within 1e-9 of .5 counts as .5
  });

  it('converts to USD cents once per amount', () => {
    expect(toUsdCents(920, 'EUR', table)).toBe(1000);
    expect(toUsdCents(920, 'Credit-EUR', table)).toBe(1000);
    expect(toUsdCents(1, 'EUR', table)).toBe(1); // 1.0869… → 1
    expect(toUsdCents(15000, 'JPY', table)).toBe(100);
    expect(toUsdCents(1234, 'USD', table)).toBe(1234);
    expect(toUsdCents(1234, 'Credit-USD', table)).toBe(1234);
  });

  it('converts from USD cents with the same rule', () => {
    expect(fromUsdCents(1000, 'EUR', table)).toBe(920);
    expect(fromUsdCents(2999, 'EUR', table)).toBe(2759); // 2759.08
    expect(fromUsdCents(1, 'JPY', table)).toBe(150);
  });

  it('refuses unknown currencies with 400', () => {
    expect(() => toUsdCents(1, 'XXX', table)).toThrow(/Unknown currency XXX/);
  });

  it('takes the platform fee in basis points, half up', () => {
    expect(platformFeeCents(1000, 500)).toBe(50);
    expect(platformFeeCents(1010, 500)).toBe(51); // 50.5
    expect(platformFeeCents(1009, 500)).toBe(50); // 50.45
    expect(platformFeeCents(19, 500)).toBe(1); // 0.95
    expect(platformFeeCents(9, 500)).toBe(0); // 0.45
    expect(platformFeeCents(1000, 0)).toBe(0);
  });

  it('shows amounts with 2 decimals for fiat and 8 for crypto', () => {
    expect(displayAmount(2999, 'Credit-EUR', table)).toBe('27.59 Credit-EUR');
    expect(displayAmount(2999, 'USD', table)).toBe('29.99 USD');
    expect(displayAmount(100000, 'BTC', table)).toBe('0.01050000 BTC');
  });
});
