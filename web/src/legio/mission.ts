// The moments of VII Legio that need words: the pending step (what is
// paid for, the Xeno ship confronted, which contact goes on a discovered
// planet, how much experience to spend...), and the landing and mission
// under way: who was invited and who accepted, the Extrasolar card's
// demand, each participant's domain, the experience still missing, the
// result and who gained from it. Drawn from the typed state and the
// catalog's rules text.
import type { Catalog } from "../catalog";
import { h } from "../dom";
import { StepKind, type LegioState } from "@xodus/client/gen/legio/v1/state_pb";
import { commander, commanders, domainName, planetName, plural, purposeText, SHARES } from "./words";

function planetCard(x: LegioState, token: number): number | undefined {
  return x.planets.find((p) => p.token === token)?.card;
}

/** One line (or two) on the pending step. */
export function describeStep(x: LegioState, cat: Catalog): HTMLElement | null {
  const st = x.step;
  if (!st) return null;
  const who = st.seat !== undefined ? commander(st.seat) : "";
  const me = x.viewerSeat;
  const ship = x.ships.find((s) => s.seat === st.seat);
  let text = "";
  let more = "";
  switch (st.kind) {
    case StepKind.PROFILE: text = `${who} chooses a command profile${st.promotion ? " for the new Spatha" : ""}: line n gives Diplomacy +(3 − n) and Capture +n on every mission.`; break;
    case StepKind.EXPERT: text = `${who} embarks an expert${st.promotion ? " (promotion)" : ""}.`; more = `${cat.text("expert", 0)} ${cat.text("expert", 1)} ${cat.text("expert", 2)}`; break;
    case StepKind.KEEP_OBJECTIVE: text = `${who} keeps one of two Secret Objectives, scored in PC when achieved or at the end.`; break;
    case StepKind.DRAW: text = `${who} draws Exploration cards for the turn (each card left in hand at the end costs 1 PC).`; break;
    case StepKind.TURN: text = `${who}'s turn${x.turn ? `: ${plural(x.turn.drawn, "card", "cards")} drawn${x.turn.landed ? ", landing used" : ""}${x.turn.decoded ? ", decoder used" : ""}` : ""}.`; break;
    case StepKind.PAY: text = `${who} discards ${plural(st.left, "more card", "more cards")} face down to pay for: ${purposeText(st.purpose, (i) => cat.name("exploration", i))}.`; break;
    case StepKind.CONTACT: {
      text = `A discovery on ${planetName(st.planet ?? 0)}: ${who} chooses which zone A contact goes on it — the face-up one or the face-down one.`;
      if (x.contactA1 !== undefined) more = `Face up: ${cat.name("extrasolar", x.contactA1)} — ${cat.text("extrasolar", x.contactA1)}`;
      break;
    }
    case StepKind.COMBAT: {
      const c = st.card;
      text = `A Xeno ship${c !== undefined ? `, ${cat.name("exploration", c)},` : ""} bars ${who}'s way${ship ? ` (${plural(ship.tracks?.lasers ?? 0, "laser", "lasers")} aboard, ${plural(ship.tracks?.detectors ?? 0, "detector", "detectors")})` : ""}.`;
      if (c !== undefined) more = cat.text("exploration", c);
      break;
    }
    case StepKind.INVITE: text = `${who} prepares a landing and may invite the commanders whose ships share the sector: those who accept land too and share the mission.`; break;
    case StepKind.ANSWER: text = `${who} is invited to land${x.landing ? ` on ${planetName(x.landing.planet)}` : ""}: accepting joins the mission and its share of PC.`; break;
    case StepKind.CONFIRM: text = `${who} confirms the landing: with the ships that accepted, with the Imperator's help too (its card lends squads and experience), or gives it up.`; break;
    case StepKind.DOMAIN: text = `${who} names the domain invested in this mission (the card accepts either).`; break;
    case StepKind.SPEND: text = `${who} may spend up to ${st.amount} experience towards what the mission still misses.`; break;
    case StepKind.STAR: text = `The planet has a star: ${who} may leave personnel on it for PX.`; break;
    case StepKind.DISMISS: text = `${who} may part with one personnel for 1 PX.`; break;
    case StepKind.TECH: text = `${who} reached 6 PX and learns a technology: ${cat.text("tech", 0)}`; break;
    case StepKind.CHOOSE_X: text = `${who} takes one X card in Sector X${me === st.seat ? " (your X pile is listed under your hand)" : ""}.`; break;
    case StepKind.OVER: text = "The game is over."; break;
    default: return null;
  }
  return h("div", { class: "step" }, h("p", undefined, text), more ? h("p", { class: "step-more" }, more) : null);
}

/** The landing being arranged and the mission under way, in words. */
export function drawMission(x: LegioState, cat: Catalog, shares: Map<number, number>): HTMLElement | null {
  const l = x.landing;
  const m = x.mission;
  const parts: (HTMLElement | null)[] = [];
  if (m && m.participants.length) {
    const card = m.card;
    const rows = m.participants.map((s, i) => {
      const d = m.domains[i] ?? 0;
      const gained = m.gained[i];
      const naming = x.step?.kind === StepKind.DOMAIN && x.step.seat === s;
      const invests = d ? `: invests ${domainName(d)}` : naming ? ": naming the domain it invests" : "";
      const got = shares.get(s);
      return h("li", undefined, `${commander(s)}${s === x.viewerSeat ? " (you)" : ""}${invests}${got ? ` — its share: ${got} PC` : gained ? " — gained from it" : ""}`);
    });
    const state = m.success ? `The experience was met: the mission succeeds; ${SHARES}`
      : m.shortfall > 0 ? `Experience still missing: ${m.shortfall}. Participants may spend Adventurers or points of their experience table, in turn order; if it stays short, the mission fails.`
        : "The participants' experience is being counted against the card's demand.";
    parts.push(h("div", { class: "mission", id: "mission" },
      h("h3", undefined, `Mission on ${planetName(m.planet)}: ${cat.name("extrasolar", card)}`),
      h("p", { class: "ctext" }, cat.text("extrasolar", card)),
      h("ul", undefined, ...rows),
      m.imperator !== undefined ? h("p", undefined, `The Imperator helps: ${cat.name("imperator", m.imperator)} — ${cat.text("imperator", m.imperator)}`) : null,
      h("p", { class: "verdict" }, state)));
  } else if (l && (l.invited.length || x.step?.kind === StepKind.INVITE || x.step?.kind === StepKind.CONFIRM)) {
    const card = planetCard(x, l.planet);
    const waiting = l.invited.filter((s) => !l.accepted.includes(s));
    parts.push(h("div", { class: "landing", id: "landing" },
      h("h3", undefined, `Landing on ${planetName(l.planet)}${card !== undefined ? `: ${cat.name("extrasolar", card)}` : ""}`),
      card !== undefined ? h("p", { class: "ctext" }, cat.text("extrasolar", card)) : null,
      h("p", undefined, l.invited.length ? `Invited: ${commanders(l.invited)}. Accepted: ${commanders(l.accepted)}.${waiting.length && x.step?.kind === StepKind.ANSWER ? ` Waiting for an answer from ${commanders(waiting)}.` : ""}` : "Nobody invited yet: only ships in the same sector can be."),
      h("p", { class: "hint" }, "Those who land together pool their squads for the landing and their experience for the mission, and share its PC if it succeeds.")));
  }
  if (x.endCause) parts.push(h("p", { class: "end-cause" }, `The end is triggered (${x.endCause.replace(/_/g, " ")}): the round is played out.`));
  return parts.some(Boolean) ? h("section", { class: "mission-panel", "aria-label": "Landing and mission" }, ...parts) : null;
}
