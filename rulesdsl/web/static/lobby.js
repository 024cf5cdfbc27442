// The lobby: choose a game, its players, options and seats; get a private link per person.
"use strict";

const COLOURS = ["#b3413a", "#2f62ad", "#2e8a4f", "#b8860b", "#7b4aa8", "#c0632a", "#2b8f8b", "#a83e72"];
let GAMES = [], KINDS = [], chosen = null;

function kindName(kind) {
  if (kind === "human") return "a person";
  const [name, level] = kind.split(":");
  return `computer: ${name}${level ? " (" + level + ")" : ""}`;
}
async function load() {
  const data = await (await fetch("/api/games")).json();
  GAMES = data.games; KINDS = data.seats;
  const box = document.getElementById("games");
  box.replaceChildren(...GAMES.map((g, k) => h("div", {
    class: "game-tile", style: `--tile:${COLOURS[k % COLOURS.length]}`, "data-game": g.name,
    onclick: () => choose(g),
  }, h("h3", { text: g.title || g.name }),
     h("div", { class: "meta", text: g.error ? g.error :
       `${g.min_players === g.max_players ? g.min_players : g.min_players + "–" + g.max_players} players · ${g.name}` }),
     ...(g.about && g.about.length ? [h("p", { class: "about", text: g.about[0] })] : []))));
  showRecent();
}
function choose(g) {
  if (g.error) return;
  chosen = g;
  document.querySelectorAll(".game-tile").forEach(el => el.classList.toggle("chosen", el.dataset.game === g.name));
  document.getElementById("setup").hidden = false;
  document.getElementById("links").hidden = true;
  document.getElementById("lobby-error").textContent = "";
  document.getElementById("setup-title").textContent = g.title;
  document.getElementById("setup-about").replaceChildren(...(g.about || []).map(text => h("p", { text })));
  const players = document.getElementById("players");
  players.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) players.append(h("option", { value: n, text: n }));
  players.onchange = seatsForm;
  const opts = document.getElementById("options-form");
  opts.replaceChildren(...Object.entries(g.options).map(([k, v]) => h("label", {},
    k.replace(/_/g, " "),
    typeof v === "boolean" ? h("input", { type: "checkbox", "data-option": k, checked: v || null }) :
      h("input", { type: typeof v === "number" ? "number" : "text", "data-option": k, value: v }))));
  seatsForm();
  document.getElementById("setup").scrollIntoView({ behavior: "smooth" });
}
function seatsForm() {
  const n = Number(document.getElementById("players").value);
  const box = document.getElementById("seats");
  box.replaceChildren();
  for (let k = 0; k < n; k++) {
    const sel = h("select", { "data-seat": k }, KINDS.map(kind => h("option", { value: kind, text: kindName(kind) })));
    sel.value = k === 0 ? "human" : "ismcts:easy";
    box.append(h("label", {}, `P${k + 1}`, sel));
  }
}
async function start() {
  const options = {};
  document.querySelectorAll("[data-option]").forEach(el => {
    const v = chosen.options[el.dataset.option];
    options[el.dataset.option] = typeof v === "boolean" ? el.checked : typeof v === "number" ? Number(el.value) : el.value;
  });
  const seats = [...document.querySelectorAll("[data-seat]")].map(el => el.value);
  const body = { game: chosen.name, players: seats.length, options, seats };
  const r = await fetch("/api/games", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
  const data = await r.json();
  if (!r.ok) { document.getElementById("lobby-error").textContent = data.error; return; }
  const list = document.getElementById("link-list");
  const full = p => new URL(p, location.href).href;
  list.replaceChildren(
    ...data.links.map(l => h("li", {}, h("a", { href: l.url, target: "_blank", text: `Play as ${l.name}` }), " ", h("span", { class: "url", text: full(l.url) }))),
    h("li", {}, h("a", { href: data.watch, target: "_blank", text: "Watch" }), " ", h("span", { class: "url", text: full(data.watch) })));
  document.getElementById("links").hidden = false;
  remember({ title: chosen.title, links: data.links, watch: data.watch, when: Date.now() });
  if (data.links.length === 1) location.href = data.links[0].url;   // one person: straight to the table
}
function remember(entry) {
  const kept = JSON.parse(localStorage.getItem("rulesdsl-games") || "[]");
  kept.unshift(entry);
  localStorage.setItem("rulesdsl-games", JSON.stringify(kept.slice(0, 20)));
}
function showRecent() {
  const kept = JSON.parse(localStorage.getItem("rulesdsl-games") || "[]");
  if (!kept.length) return;
  document.getElementById("recent").hidden = false;
  document.getElementById("recent-list").replaceChildren(...kept.map(g => h("li", {},
    `${g.title} (${new Date(g.when).toLocaleString()}): `,
    g.links.map(l => [h("a", { href: l.url, text: l.name }), " "]),
    h("a", { href: g.watch, text: "watch" }))));
}
document.getElementById("start").onclick = start;
load();
