/**
 * Side-by-side measurement on a noisy shared machine: every unit (a contender, or a contender with
 * a setting) gets one discarded warm-up window, then one window per round, in an order that rotates
 * each round so that no unit always follows the same neighbour. Callers report medians over rounds.
 */

export async function alternateRounds<Unit, Result>(
  units: readonly Unit[],
  rounds: number,
  warmUp: (unit: Unit) => Promise<unknown>,
  measure: (unit: Unit) => Promise<Result>,
): Promise<Result[][]> {
  for (const unit of units) await warmUp(unit);
  const results: Result[][] = units.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < units.length; step++) {
      const index = (round + step) % units.length;
      results[index]!.push(await measure(units[index]!));
    }
  }
  return results;
}
