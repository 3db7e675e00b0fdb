// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureConnectivity, isOnline, noteReachable, onBackOnline, resetConnectivity, subscribeOnline } from '../../src/api/connectivity';
import { apiRequest, configureHttp } from '../../src/api/http';
import * as z from 'zod/mini';
import { fakeFetch, jsonResponse } from './fake-fetch';

/** The app's own idea of online: the browser's word and whether calls get through. */
describe('connectivity', () => {
  beforeEach(() => {
    resetConnectivity();
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    resetConnectivity();
  });

  it('a call that fails for want of a connection makes the app offline although the browser says online; any answer brings it back', async () => {
    let up = false;
    const f = fakeFetch(() => (up ? jsonResponse({ ok: true }, { status: 403 }) : Promise.reject(new TypeError('Failed to fetch'))));
    configureHttp({ fetchFn: f.fn, token: () => 'tok', baseUrl: () => '' });
    const changes = vi.fn();
    const back = vi.fn();
    subscribeOnline(changes);
    onBackOnline(back);
    expect(navigator.onLine).toBe(true);
    const schema = z.object({ ok: z.boolean() });
    await expect(apiRequest({ path: '/api/a', schema })).rejects.toMatchObject({ kind: 'network' });
    expect(isOnline()).toBe(false);
    expect(changes).toHaveBeenCalledTimes(1);
    expect(back).not.toHaveBeenCalled();
    up = true;
    // A refusal is an answer: the server is there.
    await expect(apiRequest({ path: '/api/a', schema })).rejects.toMatchObject({ kind: 'http' });
    expect(isOnline()).toBe(true);
    expect(changes).toHaveBeenCalledTimes(2);
    expect(back).toHaveBeenCalledTimes(1);
  });

  it('while offline the probe asks now and then, backing off, until the server answers', async () => {
    const answers = [false, false, true];
    const probe = vi.fn(() => Promise.resolve(answers.shift() ?? true));
    configureConnectivity({ probe });
    const back = vi.fn();
    onBackOnline(back);
    noteReachable(false);
    expect(probe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(isOnline()).toBe(false);
    await vi.advanceTimersByTimeAsync(8_000);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(isOnline()).toBe(true);
    expect(back).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it("the browser's 'online' event counts as a way back", () => {
    const back = vi.fn();
    onBackOnline(back);
    noteReachable(false);
    window.dispatchEvent(new Event('online'));
    expect(isOnline()).toBe(true);
    expect(back).toHaveBeenCalledTimes(1);
  });
});
