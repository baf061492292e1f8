/** `whenAborted`: one listener on the signal for every waiter, each called once, none after it stopped waiting. */
import { getEventListeners } from 'node:events';
import { expect, it, vi } from 'vitest';
import { whenAborted } from '../../src/node/signal-fan-out.ts';

it('calls the waiters still waiting when the signal aborts, through one listener', () => {
  const controller = new AbortController();
  const called: string[] = [];
  whenAborted(controller.signal, () => called.push('a'));
  const stopB = whenAborted(controller.signal, () => called.push('b'));
  whenAborted(controller.signal, () => called.push('c'));
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
  stopB();
  controller.abort();
  controller.abort();
  expect(called).toEqual(['a', 'c']);
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});

it('calls a waiter on a signal already aborted at once', () => {
  let called = 0;
  const stop = whenAborted(AbortSignal.abort(), () => (called += 1));
  expect(called).toBe(1);
  stop();
  expect(called).toBe(1);
});

it('keeps the signals apart', () => {
  const first = new AbortController();
  const second = new AbortController();
  const called: string[] = [];
  whenAborted(first.signal, () => called.push('first'));
  whenAborted(second.signal, () => called.push('second'));
  second.abort();
  expect(called).toEqual(['second']);
  first.abort();
  expect(called).toEqual(['second', 'first']);
});

it('a waiter that throws stops none of the others, and its error is reported on its own', () => {
  const controller = new AbortController();
  const called: string[] = [];
  const failure = new Error('a waiter failed');
  whenAborted(controller.signal, () => {
    throw failure;
  });
  whenAborted(controller.signal, () => called.push('after'));
  const reported: Array<() => void> = [];
  const queue = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => reported.push(task));
  try {
    controller.abort();
  } finally {
    queue.mockRestore();
  }
  expect(called).toEqual(['after']);
  expect(reported).toHaveLength(1);
  expect(() => reported[0]?.()).toThrow(failure);
});
