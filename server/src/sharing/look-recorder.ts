import type { Database } from '../db/open-database';
import { recordLooks } from './map-view-rows';
import { LOOK_EVERY_MS, VIEW_CONTINUES_MS } from './map-views';

// Requests remembered as just looked at before the expired ones are swept out.
const REMEMBERED_LOOKS = 10_000;

/**
 * Records the server's looks: each request the requester was shown a position of counts as looked at now, unless
 * this instance already recorded it within LOOK_EVERY_MS. Only requests shared now are recorded (a look before
 * consent or after Stop sharing shows the recipient nothing), and only those are remembered, so a request shared a
 * moment later is recorded at the next look.
 */
export class LookRecorder {
  private readonly recorded = new Map<string, number>();
  private sweptAt = -Infinity;

  /** `remembered`: how many requests it holds before it sweeps out those due again (tests make it small). */
  constructor(
    private readonly db: Database,
    private readonly remembered = REMEMBERED_LOOKS,
  ) {}

  /** How many requests it remembers as just looked at. */
  get size(): number {
    return this.recorded.size;
  }

  async record(requestIds: Iterable<string>, now = new Date()): Promise<void> {
    const at = now.getTime();
    // Nothing made unless something is due: the request history asks on every read, and nearly always nothing is.
    let dueIds: Set<string> | undefined;
    for (const id of requestIds) {
      if (at - (this.recorded.get(id) ?? -Infinity) >= LOOK_EVERY_MS) (dueIds ??= new Set()).add(id);
    }
    if (!dueIds) return;
    const due = [...dueIds];
    // Marked before the statement, so that looks arriving meanwhile do not record the same again.
    for (const id of due) this.recorded.set(id, at);
    let shared: Set<string>;
    try {
      shared = new Set(await recordLooks(this.db, due, new Date(at - VIEW_CONTINUES_MS), now));
    } catch (error) {
      for (const id of due) this.recorded.delete(id);
      throw error;
    }
    for (const id of due) if (!shared.has(id)) this.recorded.delete(id);
    // At most once per LOOK_EVERY_MS: with more requests than that looked at within it, every entry is still due
    // to stay, and sweeping on each call would read them all each time.
    if (this.recorded.size > this.remembered && at - this.sweptAt >= LOOK_EVERY_MS) {
      this.sweptAt = at;
      for (const [id, when] of this.recorded) if (at - when >= LOOK_EVERY_MS) this.recorded.delete(id);
    }
  }
}

const recorders = new WeakMap<Database, LookRecorder>();

/** The one recorder of a database in this process, so every route and the live streams coalesce together. */
export function looksOf(db: Database): LookRecorder {
  let recorder = recorders.get(db);
  if (!recorder) {
    recorder = new LookRecorder(db);
    recorders.set(db, recorder);
  }
  return recorder;
}
