import { createHook } from 'node:async_hooks';

/** A tick object caught through async_hooks: one queued by nextTick is the resource of a 'TickObject'. */
function catchTickObject(): object | undefined {
  let caught: object | undefined;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && caught === undefined) caught = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => undefined);
  } finally {
    hook.disable();
  }
  return caught;
}

/**
 * Keeps process.nextTick on V8's fast path for the life of the process. Imported first by server.ts, before the
 * app's modules load.
 *
 * nextTick queues each callback as an object literal with two symbol keys. V8 holds the hidden classes of those
 * objects weakly, so a full garbage collection at a moment when no tick is queued frees them. The next tick then
 * builds new ones, the literal's inline caches (monomorphic until then) go megamorphic, and every later nextTick
 * defines its properties through V8's runtime: about 6× slower on Node 20 (86 against 530 ns a tick), and an HTTP
 * answer takes several ticks. Whether it happened depended on when the first full collection came: it did with the
 * embedded database, which grows its memory while it starts, and that server used 10–15 % more CPU an answer than
 * the same build on PostgreSQL.
 *
 * One tick object kept alive keeps its hidden classes, so the caches stay monomorphic. It is exported so that the
 * module's exports, which Node keeps for the life of the process, keep it; the hook that catches it is enabled for
 * one tick only.
 */
export const heldTickObject = catchTickObject();
