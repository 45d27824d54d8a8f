// @ts-check
// The coach of the guided first hand (a table with the "coach" setting): beside the table, every step in words —
// what is asked and why the marked cards may be played, why a move was refused (with the rule's paragraph one
// click away), and how the hand was scored. It only reads what the page already has (the view, the legal actions,
// the refusal, the hand's account): the game itself is played on the real engine, over the real protocol.

import {h, here} from "./dom.js";
import {language, reasonWords, t} from "./i18n.js";

/** The address of a game's rules page at the paragraph of ``rule`` (or its top), in the page's language; with
 * ``spec`` (a table's rules) the page says at its top what that table plays. */
export function rulesLink(game, rule = null, spec = null) {
  const name = String(game).split(/[-(]/)[0];
  const table = spec ? `&spec=${encodeURIComponent(spec)}` : "";
  return here(`/rules/${encodeURIComponent(name)}?lang=${language()}${table}${rule ? `#${encodeURIComponent(rule)}` : ""}`);
}

/** The coach's panel for this moment of the table. ``state`` is the table page's: game, view, what the seat to act
 * is asked and the rule behind it (``asked``, ``why``: as the game words them), whose turn,
 * the last refusal, the hands scored and the scripted first hand's step (``lesson``: the choice pointed at and why,
 * as the server's lesson gives it); ``name(seat)`` names a seat. */
export function coachPanel({game, spec = null, view, me = null, asked = null, why = null, myTurn, toAct, error, errorRule, hands, name, over, folded = false, onFold = null,
  brief = null, onIntroDone = null, onRealMatch = null, lesson = null}) {
  const steps = [];
  if (brief) { // the opening: the game in brief (who plays, the cards' order, the aim), alone until it is put away
    steps.push(h("div", {class: "coach-step coach-intro"},
      h("strong", {}, brief.title),
      brief.paragraphs.map((text) => h("p", {}, text)),
      onIntroDone ? h("button", {type: "button", class: "primary", dataset: {action: "coach-intro-done"}, onclick: onIntroDone}, t("Got it")) : null));
    return panel(game, spec, steps, folded, onFold);
  }
  if (error) {
    steps.push(h("div", {class: "coach-step coach-refused", role: "status"},
      h("strong", {}, t("That move is not allowed")),
      h("p", {}, error),
      h("a", {href: rulesLink(game, errorRule, spec), target: "_blank", rel: "noopener"}, t("Read the rule"))));
  }
  const last = hands && hands.length ? hands[hands.length - 1] : null;
  if (over) {
    steps.push(h("div", {class: "coach-step"}, h("strong", {}, t("The match is over")),
      h("p", {}, t("Well played. You can play again, or go back to the lobby and choose a table."))));
  } else if (myTurn && view && lesson && lesson.step) {
    // a step of the scripted first hand: the choice pointed at (marked at the table) and in one line why; the
    // rule's paragraph one click away
    const rule = lesson.say.rule ?? why?.rule ?? null;
    steps.push(h("div", {class: "coach-step coach-lesson"},
      h("div", {class: "coach-step-head"}, h("strong", {}, t("Your turn")),
        h("span", {class: "coach-count"}, t("Step {n} of {count}", {n: lesson.step, count: lesson.steps}))),
      // what is asked is said under the table; the marked card or button is described by this line (its id)
      h("p", {class: "coach-say", id: "coach-say"}, reasonWords(lesson.say, name)),
      h("a", {href: rulesLink(game, rule, spec), target: "_blank", rel: "noopener"}, t("Read the rule"))));
  } else if (myTurn && view) {
    const reason = why;
    const first = lesson !== null && lesson.step === null; // past the lesson's steps: the rest of the hand is theirs
    steps.push(h("div", {class: "coach-step"},
      h("strong", {}, t("Your turn")),
      h("p", {}, asked),
      h("p", {class: "coach-why"}, first
        ? t("You know enough to play the rest of this hand on your own: the cards you may play are marked.")
        : t("The cards you may play are marked.")),
      reason ? h("a", {href: rulesLink(game, reason.rule, spec), target: "_blank", rel: "noopener"}, t("Read the rule")) : null));
  } else if (toAct !== null && toAct !== undefined && view) {
    steps.push(h("div", {class: "coach-step"}, h("strong", {}, t("Watch")),
      h("p", {}, t("{name} is choosing. Each card played appears in front of its player.", {name: name(toAct)}))));
  }
  if (last && !over) {
    steps.push(h("div", {class: "coach-step coach-scored"},
      h("strong", {}, t("How the last hand was scored")),
      h("p", {}, accountSentences(last, name, me)),
      h("a", {href: rulesLink(game, "scoring", spec), target: "_blank", rel: "noopener"}, t("How scoring works")),
      // the first hand was the lesson: a real match (other tables, normal bots) is one click away
      onRealMatch ? h("p", {class: "coach-next"}, t("You have played your first hand. Go on here, or:"),
        " ", h("button", {type: "button", class: "primary", dataset: {action: "real-match"}, onclick: onRealMatch}, t("Play a real match"))) : null));
  }
  return panel(game, spec, steps, folded, onFold);
}

/** A hand's account as the coach tells it: each of its phrases a sentence of its own ("You took 4 tricks, Dario
 * took 6 tricks, Edie took 3 tricks. Nobody exchanged."), told to ``me`` with "you". */
function accountSentences(hand, name, me) {
  const said = hand && hand.said;
  if (!said) return "";
  const mine = me !== null && me !== undefined ? said.mine[String(me)] : null;
  const inside = (s) => (s === me ? t("you") : name(s)); // a name inside a phrase: "you", not "You"
  return (mine || said.words).map((r) => reasonWords(r, inside) ?? "").filter(Boolean).map((text) => {
    const sentence = text.charAt(0).toUpperCase() + text.slice(1);
    return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
  }).join(" ");
}

/** The coach's box: its title line with the fold, its steps, and the rules one click away. It folds to its title
 * line (on every width), so that the table and the hand have the room; folded, it says nothing (not even to a
 * screen reader), and the prompt under the table, read out when the turn comes, still says what to do. */
function panel(game, spec, steps, folded, onFold) {
  const fold = onFold ? h("button", {type: "button", class: "coach-fold", "aria-expanded": folded ? "false" : "true",
    "aria-controls": "coach-body", dataset: {action: "coach-fold"}, onclick: onFold}, folded ? t("Show the coach") : t("Hide the coach")) : null;
  return h("section", {class: `coach${folded ? " folded" : ""}`, "aria-label": t("Coach"), "aria-live": "polite"},
    h("div", {class: "coach-head"}, h("h2", {}, t("Your first hand, explained")), fold),
    h("div", {id: "coach-body", hidden: folded},
      ...steps,
      h("p", {class: "coach-foot"}, h("a", {href: rulesLink(game, null, spec), target: "_blank", rel: "noopener"}, t("How to play")))));
}
