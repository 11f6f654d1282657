// The glossary (issue 11, point 6): the game's terms in the player's language, with the words
// each community already uses (docs/ui-terms.md), reachable from the lobby and the tutorial.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

export const TERMS = [
  "president", "chancellor", "candidate", "liberal", "fascist", "hitler", "policy", "ja_nein",
  "election_tracker", "legislative_session", "investigate", "special_election", "peek",
  "execution", "veto", "chaos", "hitler_zone", "term_limits", "claim",
];

export function mountGlossary(root) {
  function render() {
    replace(root, h("article", { class: "glossary-page rules-page" },
      h("h1", { class: "page-title", text: t("glossary.title") }),
      h("p", { text: t("glossary.intro") }),
      h("dl", { class: "glossary" }, TERMS.map((id) => [
        h("dt", { id: `glossary-${id}`, text: t(`glossary.${id}.term`) }),
        h("dd", { text: t(`glossary.${id}.text`) }),
      ])),
      h("p", {}, h("a", { href: "#/rules", text: t("glossary.rules_link") }))));
  }
  render();
  return { render, destroy() {} };
}
