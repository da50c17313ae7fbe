// The expert's view of declaring lucky hands (roppyakken.ai.expert.declare_choice): declaring
// scores a hand's points this round but shows its cards, so the others learn which months
// they will never take from your hand.  The expert declares a hand when its points are worth
// more than what the newly shown cards tell the others, REVEAL_COST points a card.

/** Points a newly shown card is worth to the opponents (roppyakken.ai.weights: reveal_cost). */
export const REVEAL_COST = 8;

/**
 * Which of the held lucky hands the expert declares, in the order held.
 * @param {{slug: string, points: number, cards?: string[]}[]} held
 * @param {number} [revealCost]
 * @returns {string[]}
 */
export function expertDeclares(held, revealCost = REVEAL_COST) {
  const chosen = [];
  const shown = new Set();
  for (const hand of held) {
    const cards = hand.cards || [];
    const extra = cards.filter((c) => !shown.has(c)).length;
    if (hand.points > revealCost * extra) {
      chosen.push(hand.slug);
      for (const c of cards) shown.add(c);
    }
  }
  return chosen;
}
