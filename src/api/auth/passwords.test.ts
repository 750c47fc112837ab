import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPassword, PASSWORD_THREAD_IDLE_MS, passwordThreadRunning, verifyPassword } from './passwords.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('password thread', () => {
  it('stops when idle, and the next hash starts a new one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stored = await hashPassword('secret-1');
    expect(passwordThreadRunning()).toBe(true);
    vi.advanceTimersByTime(PASSWORD_THREAD_IDLE_MS - 1);
    expect(passwordThreadRunning()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(passwordThreadRunning()).toBe(false);
    // Asked while the stopped thread is still exiting: answered by the new thread, not rejected.
    await expect(verifyPassword('secret-1', stored)).resolves.toBe(true);
    await expect(verifyPassword('wrong', stored)).resolves.toBe(false);
    expect(passwordThreadRunning()).toBe(true);
  });

  it('answers a password it matched before without the thread, and checks any other', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stored = await hashPassword('secret-3');
    await expect(verifyPassword('secret-3', stored)).resolves.toBe(true);
    vi.advanceTimersByTime(PASSWORD_THREAD_IDLE_MS);
    expect(passwordThreadRunning()).toBe(false);
    await expect(verifyPassword('secret-3', stored)).resolves.toBe(true);
    expect(passwordThreadRunning()).toBe(false);
    await expect(verifyPassword('secret-4', stored)).resolves.toBe(false);
    expect(passwordThreadRunning()).toBe(true);
    // The same password against another hash (another salt) is checked again.
    await expect(verifyPassword('secret-3', await hashPassword('secret-3'))).resolves.toBe(true);
  });

  it('stays up while hashes keep coming', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stored = await hashPassword('secret-2');
    vi.advanceTimersByTime(PASSWORD_THREAD_IDLE_MS / 2);
    await verifyPassword('secret-2', stored);
    vi.advanceTimersByTime(PASSWORD_THREAD_IDLE_MS / 2 + 1);
    expect(passwordThreadRunning()).toBe(true);
  });
});
