import type { FastifyReply } from 'fastify';

/**
 * Answers that stay the same bytes for as long as the object they are made from is kept (a cache's entry): each is
 * serialized once, by the route's own serializer (its response schema), and sent as those bytes on every read after.
 * An object made afresh for one answer is serialized for that answer alone, and forgotten with it.
 */
export class SerializedAnswers<K extends object> {
  private readonly bytes = new WeakMap<K, string>();

  /** Sends, as JSON, the answer `answer` makes of `key` (made and serialized the first time only). */
  send(reply: FastifyReply, key: K, answer: (key: K) => unknown): FastifyReply {
    let body = this.bytes.get(key);
    if (body === undefined) {
      body = reply.serialize(answer(key)) as string;
      this.bytes.set(key, body);
    }
    return reply.type('application/json; charset=utf-8').send(body);
  }
}
