// VII Legio's rules as a newcomer needs them at the table: how the game
// ends and who wins (as the engine plays it: games/legio/engine/src/score.rs, turn.rs,
// xeno.rs, landing.rs), what PC and PX are, the risks of the Exploration
// cards, and the tracks of a commander's board. Short: the rulebook stays
// the reference.
import { h } from "../dom";

/** The win rule in one line, for the table's header and the tracks. */
export const WIN_RULE = "Most PC among commanders with 10 PX or more wins (tie: most PX, then shared)";

/** The "How to win" panel's body. */
export function legioRules(): HTMLElement {
  const li = (b: string, text: string) => h("li", undefined, h("b", undefined, b), ` ${text}`);
  return h("div", { class: "rules-text", "data-game-type": "legio" },
    h("h3", undefined, "How to win"),
    h("p", undefined, "Competitive: 2 to 4 commanders map the Red Nebula. When the game ends, ", h("b", undefined, "the commander with the most PC among those with 10 PX or more wins"),
      " (a tie goes to the most PX, then the victory is shared). Below 10 PX a commander cannot win, whatever its PC; if nobody has 10 PX, nobody wins."),
    h("h3", undefined, "How it ends"),
    h("ul", undefined,
      li("Declared:", "a commander with 13 PX or more may declare the end on its turn."),
      li("15 PX:", "a commander reaching the top of the Xeno track triggers the end."),
      li("Imperator at 25:", "the Imperator's score reaching 25 PC triggers the end."),
      li("No planet left:", "when no sector can take another discovery."),
      h("li", undefined, "Once the end is triggered the round is played out, so that every commander plays as often; then the Secret Objectives scored at the end are revealed and counted."),
      li("Round limit:", "the host's safety net (80 rounds unless set at creation): the game stops after that round with no winner.")),
    h("h3", undefined, "Points"),
    h("ul", undefined,
      li("PC", "(mapping points) are the score: shares of successful missions on planets, Xeno ship trophies, Oz ore, Secret Objectives. Never below 0; at 18 PC you keep a second Secret Objective."),
      li("PX", "(xenoscience points), on the Xeno track: 3 PX Oz ore can be mined, 6 a technology, 9 Sector X opens, 10 you may win, 12 Adventurers stay aboard once used, 13 you may declare the end, 15 the end is triggered."),
      li("Each card left in your hand", "when your turn ends costs 1 PC.")),
    h("h3", undefined, "Your turn"),
    h("p", undefined, "Draw Exploration cards (more with more propulsors), then spend them: cards paid face down move your ship across a border, recruit, install equipment or decode a contact; a card played face up explores, and you face its risk and gain its experience. Landing on a planet (with squads, and the commanders you invite) starts a mission: pooled experience against the card's demand; success shares its PC."),
    h("h3", undefined, "Risks of the Exploration cards"),
    h("ul", undefined,
      li("Signal:", "nothing to pay."),
      li("Discard:", "discard that many more cards from your hand, face down."),
      li("Xeno ship:", "a fight: one damage roll per laser you lack; with a laser aboard you win its trophy (PC and PX); you lose one laser either way. A risk detector may evade it instead."),
      li("Oz ore:", "gain its PC and PX (from 3 PX)."),
      li("Discovery:", "an inhabited planet may be discovered in your sector; you keep its card as a trophy once it is explored."),
      li("Drift:", "your ship is thrown back to the Star Base."),
      li("Hazard:", "one roll on the damage table (a d10: you may lose a propulsor, a laser, a squad or the decoder).")),
    h("h3", undefined, "A commander's board"),
    h("ul", undefined,
      li("Propulsors", "draw more cards; lasers fight Xeno ships; the decoder reads face-down contacts; detectors evade Xeno ships; squads are needed to land."),
      li("Experts:", "Diplomats, Adventurers and Hunters help missions."),
      li("Experience", "(Diplomacy, Capture) is gained from the cards you explore and spent on missions; the command profile adds to it on every mission."),
      li("The Star Base", "repairs your ship to its starting configuration; there, a Frombola with 12 PC is promoted to a Spatha.")));
}
