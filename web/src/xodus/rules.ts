// X-ODUS's rules as a newcomer needs them at the table: how the crew wins
// and loses (as the engine plays it: games/xodus/engine/src/apply.rs end_action_phase,
// signals.rs, corruption.rs, effects.rs) and what the tracks and the mats
// show. Short: the rulebook stays the reference.
import { h } from "../dom";

/** The "How to win" panel's body. */
export function xodusRules(): HTMLElement {
  const li = (b: string, text: string) => h("li", undefined, h("b", undefined, b), ` ${text}`);
  return h("div", { class: "rules-text", "data-game-type": "xodus" },
    h("h3", undefined, "How to win"),
    h("p", undefined, "Cooperative: the captains win or lose together. ",
      h("b", undefined, "The crew wins by sealing the Main Rift:"),
      " every Precursor Key activated at the Main Rift, and no Avatar there at the end of an Action phase."),
    h("ol", undefined,
      h("li", undefined, "Explore a Key system: its Precursor Signal is revealed."),
      h("li", undefined, "Solve the Signal (each of its instructions costs an Action), then a ship takes its Key."),
      h("li", undefined, "Carry the Keys to the Main Rift and Explore there: the Keys carried are activated. Once the last one is, the Avatars rush to the Rift: keep them off it.")),
    h("h3", undefined, "How the crew loses"),
    h("ul", undefined,
      li("Corruption:", "the marker must move on past the last space of the Corruption track (the Rise)."),
      li("Every ship destroyed:", "a ship is destroyed when its health reaches 0.")),
    h("h3", undefined, "The tracks"),
    h("ul", undefined,
      li("The Corruption track", "moves one space in each round's Corruption phase (and when effects say so). Face-down tokens printed on a space bring a new Avatar onto the board; red boxes reinforce the Enemy deck."),
      li("Signals & Keys", "show each Key: on its Signal, accessed, carried by a captain, or activated at the Rift."),
      li("A ship's mat:", "♥ health (0: destroyed), ⚡ energy left of the energy unlocked, ⚙ scraps (spent on repairs, energy and modules), XP and level (each level brings an effect), ▶ actions left this turn.")),
    h("h3", undefined, "A round"),
    h("p", undefined, "Action phase: each captain takes a turn (in the order the captains choose), moving, exploring and fighting; then the Corruption phase (the track moves, the Avatars hunt the ships), then the End phase."));
}
