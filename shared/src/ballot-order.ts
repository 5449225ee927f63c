/**
 * 'random' ballot order where the server's key is not at hand: the polling station
 * device orders each voter's candidates from a seed its package carries plus the
 * voter's id. The order is the voter's own, the same on every look-up and every device holding
 * that seed, so a voter's list never reshuffles and no candidate gains from being listed first.
 *
 * The hash (cyrb53) is not a secret-keyed one and need not be: the order only has to be spread
 * evenly and unpredictable before the seed is known, and the seed says nothing about any vote.
 */

/** A 53-bit hash of a string (cyrb53): fast, pure, the same in Node and the browser. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Each position's candidates in this voter's own order under `seed`; positions keep their order. */
export function seededBallotOrder<P extends { candidates: readonly { _id: string }[] }>(positions: readonly P[], seed: string, voterId: string): P[] {
  return positions.map((p) => {
    const rank = new Map(p.candidates.map((c) => [c._id, hash53(`${seed}\u0000${voterId}\u0000${c._id}`)]));
    // Ties (vanishingly rare) fall back to the id, so the order never depends on the input's.
    const candidates = [...p.candidates].sort((a, b) => rank.get(a._id)! - rank.get(b._id)! || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
    return { ...p, candidates };
  });
}
