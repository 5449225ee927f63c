/**
 * Ties the rules leave 'to lot' are drawn from a published seed so that anyone can repeat the
 * draw: each tied candidate gets the key FNV-1a-32(`${seed}|${stage}|${candidateId}`) and the
 * smallest key is drawn (candidate id breaks the astronomically rare equal keys). The same
 * seed, stage and tied set always draw the same candidate, whatever the ballot order.
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function drawLot(tied: readonly string[], seed: string, stage: number): string {
  let best = tied[0];
  let bestKey = fnv1a32(`${seed}|${stage}|${best}`);
  for (const id of tied.slice(1)) {
    const key = fnv1a32(`${seed}|${stage}|${id}`);
    if (key < bestKey || (key === bestKey && id < best)) {
      best = id;
      bestKey = key;
    }
  }
  return best;
}
