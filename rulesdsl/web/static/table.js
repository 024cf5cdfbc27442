// The table page: draws whatever the server sends for this link's seat. It knows no game:
// the layout comes from the game's declared display (zones, variables, boards) and the
// seat's table message. Every text from the game is set as text, never as HTML.
"use strict";

const TOKEN = location.pathname.split("/").filter(Boolean).pop();
const PLAYER_COLOURS = ["#d2483a", "#2f6fc9", "#e8b730", "#3f9e4d", "#8e55c7", "#e07b2f",
                        "#2ba3a0", "#c24a87", "#6d7b8a", "#8a6d3b"];
const CARD_COLOURS = ["#b3413a", "#2f62ad", "#2e8a4f", "#b8860b", "#7b4aa8", "#c0632a",
                      "#2b8f8b", "#a83e72", "#4d5d6e", "#6b8e23"];
const CSS_COLOURS = new Set(["red", "blue", "green", "yellow", "purple", "orange", "black",
  "white", "pink", "brown", "grey", "gray", "violet", "gold", "silver", "teal", "cyan",
  "magenta"]);

let D = null;          // the game's declared display
let T = null;          // the latest table message
let ws = null;
let selected = null;   // a board place chosen as the first half of a move ("a3" of "a3 to b4")
let overShown = false;
let live = null;       // in a replay: the latest table of the game itself, shown again after

// ------------------------------------------------------------------ small helpers
const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}
function hash(text) {
  let n = 7;
  for (const ch of String(text)) n = (n * 31 + ch.codePointAt(0)) >>> 0;
  return n;
}
function title(name) {
  const t = (D && D.titles && D.titles[name]) || name;
  return String(t).replace(/_/g, " ");
}
function keysOf(name) {
  const m = /\[(.*)\]$/.exec(name);
  return m ? m[1].split(",").map(k => k.trim()).filter(Boolean) : [];
}
function seatName(k) { return (T && T.names[k]) || `P${k + 1}`; }
function seatOfLabel(text) {
  const m = /\bP(\d{1,2})\b/.exec(String(text));
  return m ? Number(m[1]) - 1 : null;
}
function playerColour(k) {
  return lookColour((look().seats || [])[k]) || PLAYER_COLOURS[k % PLAYER_COLOURS.length];
}
function groupColour(group) {
  const hinted = lookOf("colours", group);
  if (hinted) return hinted;
  const g = String(group).toLowerCase();
  if (CSS_COLOURS.has(g)) return g === "white" ? "#8d8d8d" : g === "yellow" ? "#c9a21a" : g;
  return CARD_COLOURS[hash(group) % CARD_COLOURS.length];
}
function valueText(v) {
  if (v === null || v === undefined) return "–";
  if (v === true) return "yes";
  if (v === false) return "no";
  if (Array.isArray(v)) return v.length ? v.map(valueText).join(", ") : "none";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k}: ${valueText(x)}`).join(", ");
  return String(v);
}
function zoneInfo(name) { return (D.zones && D.zones[name]) || {}; }
function varInfo(name) { return (D.vars && D.vars[name]) || {}; }
function zoneTitle(name) {
  const z = zoneInfo(name);
  const own = z.owner === null || z.owner === undefined ? null : `P${z.owner + 1}`;
  const keys = keysOf(name).filter(k => k !== own);
  const base = title(z.zone || name.replace(/\[.*$/, ""));
  return keys.length ? `${base} (${keys.join(", ")})` : base;
}
function isAction(label) { return T && T.actions.includes(label); }
function cardActions(label) {
  // the options a card stands for: its own label, or options naming it ("play red 5")
  if (!T) return [];
  const word = new RegExp(`(^|\\s)${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|\\s)`);
  return T.actions.filter(l => l === label || word.test(l));
}

// ------------------------------------------------------------------ the game's look
// The rules file's `look` hints: checked on the server (a colour is # and hex digits or a
// CSS colour name, a side one of four words), checked again here, since a value put in a
// style must be one; set as one property's value, never as CSS or HTML text.
const SAFE_COLOUR = /^(#[0-9a-f]{3}|#[0-9a-f]{6}|[a-z]{3,30})$/;
const SIDE_WORDS = ["top", "bottom", "left", "right"];
function look() { return (D && D.look) || {}; }
function lookColour(v) { return typeof v === "string" && SAFE_COLOUR.test(v) ? v : null; }
function lookOf(hint, name) {
  const table = look()[hint];
  return table && Object.prototype.hasOwnProperty.call(table, name) ? lookColour(table[name]) : null;
}
function paint(el, property, colour) { if (colour) el.style.setProperty(property, colour); return el; }
function applyLook() {
  // the cloth: the felt's three tones made from the one colour given
  const root = document.documentElement.style;
  const felt = lookColour(look().table);
  for (const p of ["--felt", "--felt-light", "--felt-dark"]) root.removeProperty(p);
  if (!felt) return;
  root.setProperty("--felt", felt);
  root.setProperty("--felt-light", `color-mix(in srgb, ${felt} 82%, white)`);
  root.setProperty("--felt-dark", `color-mix(in srgb, ${felt} 70%, black)`);
}
function seatSides(board) {
  // [[seat, side], ...] of a board's `sides` hint, the words checked
  const given = (look().sides || {})[board];
  if (!Array.isArray(given)) return [];
  const out = [];
  given.forEach((words, k) => (Array.isArray(words) ? words : []).forEach(w => {
    if (SIDE_WORDS.includes(w)) out.push([k, w]);
  }));
  return out;
}

// ------------------------------------------------------------------ the connection
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws/${TOKEN}`);
  ws.onmessage = ev => {
    const m = JSON.parse(ev.data);
    if (m.type === "display") {
      D = m.display; document.title = `${D.name} · rulesdsl`;
      applyLook();
      for (const k of Object.keys(graphLayouts)) delete graphLayouts[k];   // the rules may have changed
      document.getElementById("changed").hidden = true;
      overShown = false; document.getElementById("over").hidden = true;
    }
    else if (m.type === "table") { if (live) live = m; else { T = m; render(); } }
    else if (m.type === "replay") { if (!live) live = T; T = m; render(); }
    else if (m.type === "hint") toast(m.text, 9000);
    else if (m.type === "rules") rulesChanged(m);
    else if (m.type === "error") toast(m.message, 4000, true);
  };
  ws.onclose = () => {
    setStatus("connection lost; reconnecting…", "waiting");
    setTimeout(connect, 1500);
  };
}
function send(obj) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); }
function play(label) { selected = null; send({ play: label }); }

function toast(text, ms, bad) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.className = bad ? "bad" : "";
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, ms || 4000);
}
function setStatus(text, kind) {
  const el = document.getElementById("status");
  el.textContent = text;
  el.className = kind || "";
}

// ------------------------------------------------------------------ cards
function card(label, opts) {
  opts = opts || {};
  const facts = (T.cards && T.cards[label]) || null;
  const group = facts ? facts.group : null;
  const mover = seatOfLabel(label);
  const hinted = facts && (lookOf("colours", facts.group) || lookOf("colours", facts.kind));
  const colour = hinted || (group !== null ? groupColour(group) :
    mover !== null ? playerColour(mover) : "#556");
  // a card in the seat's hand is played from there, not from a pile or a line showing its
  // twin; a card in another of its own zones, from that zone rather than the table
  const elsewhere = (!opts.hidden && myLabels(true).has(label)) ||
    (!opts.mine && myLabels(false).has(label));
  const acts = opts.playable === false || elsewhere ? [] : cardActions(label);
  const playable = acts.length > 0;
  const fields = facts ? Object.entries(facts.fields).filter(([, v]) =>
    v !== null && !String(label).toLowerCase().includes(String(v).toLowerCase())) : [];
  const el = h("div", {
    class: "card" + (playable ? " playable" : "") + (opts.small ? " small" : ""),
    "data-label": label, title: label,
    onclick: playable ? () => (acts.length === 1 ? play(acts[0]) : showChoices(acts, label)) : null,
    oncontextmenu: ev => { ev.preventDefault(); explain(label); },
  },
    h("span", { class: "corner", text: facts && manyKinds() ? title(facts.kind) : "" }),
    h("span", { class: "name", text: label }),
    fields.length ? h("span", { class: "fields" },
      fields.map(([k, v]) => h("span", { class: "field" }, h("b", { text: title(k) }), " ", valueText(v)))) : null,
    opts.count > 1 ? h("span", { class: "badge", text: `×${opts.count}` }) : null,
    h("button", { class: "ask", title: "what is this card?", text: "?",
                  onclick: ev => { ev.stopPropagation(); explain(label); } }));
  paint(el, "--ink", lookColour(colour) || "#556");
  paint(el, "--paper", facts && lookOf("faces", facts.kind));
  return el;
}
function manyKinds() {
  // a card's kind is worth a corner only where the cards in sight are of several kinds
  return new Set(Object.values(T.cards || {}).map(f => f.kind)).size > 1;
}
function myLabels(hiddenOnly) {
  // the labels in the seat's own zones (only those the others may not see: its hand)
  const out = new Set();
  if (T.seat === null) return out;
  for (const [name, cards] of Object.entries(T.zones)) {
    const z = zoneInfo(name);
    if (z.owner === T.seat && Array.isArray(cards) && (!hiddenOnly || z.visibility !== "public")) cards.forEach(l => out.add(l));
  }
  return out;
}
function back(count, opts) {
  opts = opts || {};
  const shown = Math.min(count, opts.max || 6);
  const stack = h("div", { class: "backs" + (opts.small ? " small" : "") });
  for (let k = 0; k < shown; k++) stack.append(h("div", { class: "card back", style: `--k:${k}` }));
  if (!count) stack.append(h("div", { class: "card empty", text: "empty" }));
  stack.append(h("span", { class: "count", text: count ? `${count}` : "" }));
  return stack;
}
function grouped(labels) {
  // alike cards of a hand side by side as one card with a count
  const out = [];
  for (const l of labels) {
    const last = out[out.length - 1];
    if (last && last.label === l) last.count++;
    else out.push({ label: l, count: 1 });
  }
  return out;
}
function hand(labels, opts) {
  const items = grouped(labels);
  const n = items.length;
  // cards side by side while they fit, overlapping more the more there are
  const fan = h("div", { class: "hand" + (opts && opts.small ? " small" : "") + (n > 6 ? " tight" : ""),
                         style: `--overlap:${n <= 6 ? 6 : n <= 10 ? -14 : -34}px` });
  items.forEach((it, k) => {
    const c = card(it.label, { count: it.count, small: opts && opts.small, mine: opts && opts.mine, hidden: opts && opts.hidden });
    if (opts && opts.fan && n > 1) {
      const turn = (k - (n - 1) / 2) * Math.min(4, 26 / n);
      c.style.setProperty("--turn", `${turn}deg`);
      c.style.setProperty("--lift", `${Math.abs(turn) * 0.9}px`);
    }
    fan.append(c);
  });
  if (!n) fan.append(h("div", { class: "card empty" + (opts && opts.small ? " small" : ""), text: "empty" }));
  return fan;
}
function dice(values) {
  return h("div", { class: "dice" }, values.map(v => die(v)));
}
function die(v) {
  const pips = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] }[v];
  const el = h("div", { class: "die", title: String(v) });
  for (let k = 0; k < 9; k++) el.append(h("i", { class: pips.includes(k) ? "pip" : "" }));
  return el;
}
function isDice(v) {
  return Array.isArray(v) && v.length > 0 && v.every(x => Number.isInteger(x) && x >= 1 && x <= 6);
}

// ------------------------------------------------------------------ zones and variables
function zonePiece(name, cards, owner, mine) {
  const z = zoneInfo(name);
  const head = h("div", { class: "zone-title", text: zoneTitle(name) });
  if (!Array.isArray(cards)) {
    return h("div", { class: "zone pile" }, head, back(cards.count, { small: !mine }));
  }
  const pile = !z.unordered && z.owner === null && cards.length > 1 && !isRow(name) && !isRound(name, cards);
  if (pile) {
    // a shared pile: its top card, how many lie under it
    const top = cards[cards.length - 1];
    return h("div", { class: "zone pile" }, head,
      h("div", { class: "stack" }, h("div", { class: "under", style: `--n:${Math.min(cards.length - 1, 4)}` }), card(top)),
      h("span", { class: "count", text: `${cards.length}` }),
      cards.filter(isAction).filter(l => l !== top).length ?
        h("div", { class: "also" }, "also: ", cards.filter(isAction).filter(l => l !== top).map(l =>
          h("button", { class: "chip", onclick: () => play(l), text: l }))) : null);
  }
  const fan = mine && z.visibility !== "public";
  const many = owner === null && cards.length > 12;
  return h("div", { class: "zone" + (fan ? " my-hand" : "") }, head,
    hand(many ? cards.slice(-12) : cards, { fan, mine, hidden: fan, small: !mine && !fan && owner !== null }),
    many ? h("span", { class: "also", text: `and ${cards.length - 12} more under them` }) : null);
}
function isRound(name, cards) {
  // a shared face-up zone holding no more cards than there are seats (a trick, a round's
  // plays): each card counts, so they lie side by side instead of stacked
  return zoneInfo(name).visibility === "public" && cards.length <= T.names.length;
}
function isRow(name) {
  // a shared zone whose cards are all playable or many face up: laid out in a row
  const z = zoneInfo(name);
  return z.visibility === "public" && T.zones[name] && T.zones[name].some(isAction);
}
function varPiece(name, value) {
  const info = varInfo(name);
  const keys = keysOf(name).filter(k => info.owner === null || info.owner === undefined || k !== `P${info.owner + 1}`);
  const label = title(info.var || name.replace(/\[.*$/, "")) + (keys.length ? ` (${keys.join(", ")})` : "");
  if (isDice(value)) return h("div", { class: "var dice-var" }, h("span", { class: "k", text: label }), dice(value));
  const who = typeof value === "string" ? seatOfLabel(value) : null;
  const v = h("span", { class: "v", text: who !== null && value === `P${who + 1}` ? seatName(who) : valueText(value) });
  if (who !== null && value === `P${who + 1}`) v.style.color = playerColour(who);
  return h("div", { class: "var" + (value === null || value === false ? " off" : "") },
    h("span", { class: "k", text: label }), v);
}
function varPieces(entries) {
  // one chip a variable: instances of it (one per colour, say) folded as the terminal
  // folds them, "trophies: red, blue" for the true ones of a yes/no variable
  const groups = new Map();
  for (const [name, value] of entries) {
    const info = varInfo(name);
    const key = info.var || name;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push([name, value]);
  }
  const out = [];
  for (const [key, list] of groups) {
    if (list.length === 1 || isDice(list[0][1])) { for (const [n, v] of list) out.push(varPiece(n, v)); continue; }
    const owner = varInfo(list[0][0]).owner;
    const own = owner === null || owner === undefined ? null : `P${owner + 1}`;
    const keyText = n => keysOf(n).filter(k => k !== own).join(", ");
    let text, off = false;
    if (list.every(([, v]) => typeof v === "boolean")) {
      const on = list.filter(([, v]) => v).map(([n]) => keyText(n));
      text = on.length ? on.join(", ") : "none"; off = !on.length;
    } else {
      text = list.map(([n, v]) => `${keyText(n)}: ${valueText(v)}`).join(" · ");
    }
    out.push(h("div", { class: "var" + (off ? " off" : "") }, h("span", { class: "k", text: title(key) }), h("span", { class: "v", text })));
  }
  return out;
}
function hiddenVar(name) {
  const info = varInfo(name);
  return (D.internal || []).includes(info.var) || onBoard(info, name);
}
function onBoard(info, name) {
  return info.board && (D.boards || {})[info.board] && (info.owner === null || info.owner === undefined)
    && keysOf(name).length === 1;
}

// ------------------------------------------------------------------ boards
function boardValues(board) {
  // per place of the board: the variables and the top piece of the zones kept on it
  const places = {};
  for (const [name, value] of Object.entries(T.vars)) {
    const info = varInfo(name);
    if (info.board !== board || !onBoard(info, name)) continue;
    const place = keysOf(name)[0];
    (places[place] = places[place] || { vars: [], pieces: null }).vars.push([info.var, value]);
  }
  for (const [name, cards] of Object.entries(T.zones)) {
    const z = zoneInfo(name);
    if (z.board !== board || (z.owner !== null && z.owner !== undefined) || keysOf(name).length !== 1) continue;
    const place = keysOf(name)[0];
    (places[place] = places[place] || { vars: [], pieces: null }).pieces = cards;
  }
  for (const [t, b, cells] of T.on_boards || []) {   // a `show` worked out for each cell
    if (b !== board) continue;
    for (const [place, text] of Object.entries(cells)) {
      if (text !== null) (places[place] = places[place] || { vars: [], pieces: null }).vars.push([t, text]);
    }
  }
  return places;
}
function marked(board) {
  // places a variable of the table names ("battle for Torino"): {place: [its titles]}
  const out = {};
  const nodes = new Set(D.boards[board] || []);
  for (const [name, value] of Object.entries(T.vars)) {
    const info = varInfo(name);
    if (typeof value !== "string" || !nodes.has(value) || onBoard(info, name) ||
        (D.internal || []).includes(info.var)) continue;
    (out[value] = out[value] || []).push(title(info.var || name));
  }
  return out;
}
function seatCount(v) {
  // "P2 12": a seat's number of pieces on a place, as a shown value says it; else null
  const m = typeof v === "string" ? /^P(\d{1,2}) (\d+)$/.exec(v) : null;
  return m ? [Number(m[1]) - 1, m[2]] : null;
}
function placeFill(at) {
  // the colour of whoever holds a place: a variable naming a player, or its top piece
  if (!at) return null;
  for (const [, v] of at.vars) if (typeof v === "string" && seatOfLabel(v) !== null && v === `P${seatOfLabel(v) + 1}`) return playerColour(seatOfLabel(v));
  for (const [, v] of at.vars) if (seatCount(v)) return playerColour(seatCount(v)[0]);
  if (Array.isArray(at.pieces) && at.pieces.length) {
    const who = seatOfLabel(at.pieces[at.pieces.length - 1]);
    if (who !== null) return playerColour(who);
  }
  return null;
}
function pieceWord(label) { return label.replace(/\bP\d+\b/, "").trim(); }
function commonPiece(places) {
  // the piece most places hold goes unnamed (a plain stone); the others are lettered
  const count = {};
  for (const at of Object.values(places)) {
    if (Array.isArray(at.pieces) && at.pieces.length) {
      const w = pieceWord(at.pieces[at.pieces.length - 1]);
      count[w] = (count[w] || 0) + 1;
    }
  }
  return Object.entries(count).sort((a, b) => b[1] - a[1]).map(([w]) => w)[0];
}
function placeText(at, common) {
  if (!at) return "";
  if (Array.isArray(at.pieces) && at.pieces.length) {
    const top = pieceWord(at.pieces[at.pieces.length - 1]);
    const name = top === common && seatOfLabel(at.pieces[at.pieces.length - 1]) !== null ? "" :
      top.length <= 3 ? top : top[0].toUpperCase();
    return name + (at.pieces.length > 1 ? `+${at.pieces.length - 1}` : "");
  }
  if (at.pieces && at.pieces.count) return `#${at.pieces.count}`;
  const other = at.vars.filter(([, v]) => v !== null && v !== false &&
    (seatCount(v) || !(typeof v === "string" && seatOfLabel(v) !== null)));
  return other.map(([, v]) => (v === true ? "•" : seatCount(v) ? seatCount(v)[1] : valueText(v))).join(" ");
}
function placeActions(place) {
  // the options that start at this place: "a3" itself, or "a3 to b4", "a3 x c5 x e7"
  return T.actions.filter(l => l === place || l.startsWith(place + " "));
}
function lastWord(l) { const w = l.split(/\s+/); return w[w.length - 1]; }
function clickPlace(place) {
  if (selected) {
    const ends = T.actions.filter(l => l.startsWith(selected + " ") && lastWord(l) === place);
    if (ends.length === 1) return play(ends[0]);
    if (ends.length > 1) return showChoices(ends, `${selected} to ${place}`);
  }
  const acts = placeActions(place);
  if (acts.length === 1) return play(acts[0]);
  if (acts.length > 1) { selected = place; render(); }
  else if (selected) { selected = null; render(); }
}
function placeState(place) {
  if (selected === place) return "selected";
  if (selected) {
    return T.actions.some(l => l.startsWith(selected + " ") && lastWord(l) === place) ? "target" : "";
  }
  return placeActions(place).length ? "target" : "";
}
function gridBoard(board) {
  const [w, hgt] = D.grids[board];
  const hex = (D.hex || []).includes(board);
  const places = boardValues(board);
  const common = commonPiece(places);
  const named = marked(board);
  const size = Math.max(30, Math.min(64, Math.floor(560 / Math.max(w + (hex ? hgt / 2 : 0), hgt))));
  const letters = [...Array(w)].map((_, k) => String.fromCharCode(97 + k));
  const pad = 22;
  let width, height;
  const cells = [];
  const r = size / Math.sqrt(3);           // a hexagon's radius for cells `size` wide
  for (let y = 1; y <= hgt; y++) {
    for (let x = 0; x < w; x++) {
      const place = `${letters[x]}${y}`;
      const at = places[place];
      const fill = placeFill(at);
      const state = placeState(place);
      const click = () => clickPlace(place);
      let cx, cy, shape;
      if (hex) {
        cx = pad + size / 2 + (x + (y - 1) * 0.5) * size;
        cy = pad + r + (hgt - y) * r * 1.5;
        const pts = [...Array(6)].map((_, k) => {
          const a = Math.PI / 180 * (60 * k - 30);
          return `${cx + r * Math.cos(a)},${cy + r * Math.sin(a)}`;
        }).join(" ");
        shape = s("polygon", { points: pts, class: "cell hexcell" });
      } else {
        cx = pad + x * size + size / 2;
        cy = pad + (hgt - y) * size + size / 2;
        shape = s("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size,
                            class: "cell " + ((x + y) % 2 ? "light" : "dark") });
      }
      const g = s("g", { class: `place ${state}`, "data-place": place, onclick: click },
        shape, s("title", { text: place + (at && Array.isArray(at.pieces) && at.pieces.length ? `: ${at.pieces.join(", ")}` : "") }));
      if (fill) g.append(s("circle", { cx, cy, r: size * 0.36, fill, class: "stone" }));
      if (named[place]) g.append(s("circle", { cx, cy, r: size * 0.44, class: "ring" }),
                                 s("title", { text: named[place].join(", ") }));
      const text = placeText(at, common);
      if (text) g.append(s("text", { x: cx, y: cy + size * 0.12, class: "piece-text" + (fill ? " on" : ""),
                                      "font-size": size * (text.length > 2 ? 0.26 : 0.34), text }));
      if (state === "target" && !fill) g.append(s("circle", { cx, cy, r: size * 0.12, class: "dot" }));
      cells.push(g);
    }
  }
  if (hex) {
    width = pad * 2 + (w + (hgt - 1) * 0.5) * size;
    height = pad * 2 + r * 2 + (hgt - 1) * r * 1.5;
  } else {
    width = pad * 2 + w * size;
    height = pad * 2 + hgt * size;
  }
  const labels = [];
  for (let x = 0; x < w; x++) {
    const cx = hex ? pad + size / 2 + x * size + (hgt - 1) * 0.5 * size : pad + x * size + size / 2;
    labels.push(s("text", { x: cx, y: hex ? pad - 6 : height - 6, class: "coord", text: letters[x] }));
  }
  for (let y = 1; y <= hgt; y++) {
    const cy = hex ? pad + r + (hgt - y) * r * 1.5 + 4 : pad + (hgt - y) * size + size / 2 + 4;
    const cx = hex ? pad + (y - 1) * 0.5 * size - 8 : pad / 2;
    labels.push(s("text", { x: cx, y: cy, class: "coord", text: String(y) }));
  }
  const edges = gridSides(board, { w, hgt, hex, size, r, pad });
  const ground = lookOf("boards", board);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, width, height,
                         class: "board " + (hex ? "hex" : "grid") + (ground ? " grounded" : "") },
    s("rect", { x: 0, y: 0, width, height, rx: 10, class: "board-bg" }), cells, edges, labels);
  paint(svg, "--ground", ground);
  return h("div", { class: "board-wrap" }, h("div", { class: "zone-title", text: title(board) }), svg);
}
function layoutBoard(board) {
  // a board of named cells laid out in rows (`row` lines, the top first): a square per
  // cell at its row and column, its name under what lies on it; a gap left bare
  const rows = D.layouts[board];
  const places = boardValues(board);
  const common = commonPiece(places);
  const named = marked(board);
  const columns = Math.max(1, ...rows.map(r => r.length));
  const size = Math.max(36, Math.min(64, Math.floor(640 / Math.max(columns, rows.length))));
  const pad = 10;
  const cells = [];
  rows.forEach((row, y) => row.forEach((place, x) => {
    if (place === null) return;
    const at = places[place];
    const fill = placeFill(at);
    const state = placeState(place);
    const cx = pad + x * size + size / 2, cy = pad + y * size + size / 2;
    const g = s("g", { class: `place ${state}`, "data-place": place, onclick: () => clickPlace(place) },
      s("rect", { x: cx - size / 2 + 2, y: cy - size / 2 + 2, width: size - 4, height: size - 4,
                  rx: size / 6, class: "cell light" }),
      s("title", { text: place }));
    if (fill) g.append(s("circle", { cx, cy: cy - size * 0.08, r: size * 0.3, fill, class: "stone" }));
    if (named[place]) g.append(s("circle", { cx, cy, r: size * 0.44, class: "ring" }));
    const text = placeText(at, common);
    if (text) g.append(s("text", { x: cx, y: cy + size * 0.04, class: "piece-text" + (fill ? " on" : ""),
                                    "font-size": size * (text.length > 2 ? 0.26 : 0.34), text }));
    g.append(s("text", { x: cx, y: cy + size * 0.4, class: "coord", text: place }));
    cells.push(g);
  }));
  const width = pad * 2 + columns * size, height = pad * 2 + rows.length * size;
  const ground = lookOf("boards", board);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, width, height,
                         class: "board layout" + (ground ? " grounded" : "") },
    s("rect", { x: 0, y: 0, width, height, rx: 10, class: "board-bg" }), cells);
  paint(svg, "--ground", ground);
  return h("div", { class: "board-wrap" }, h("div", { class: "zone-title", text: title(board) }), svg);
}
function gridSides(board, g) {
  // the edges each seat joins (a connection game's `sides`), drawn in the seat's colour
  const { w, hgt, hex, size, r, pad } = g;
  const corner = (x, y, k) => {          // a hexagon's corner k (0: upper right, clockwise)
    const cx = pad + size / 2 + (x + (y - 1) * 0.5) * size, cy = pad + r + (hgt - y) * r * 1.5;
    const a = Math.PI / 180 * (60 * k - 30);
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
  };
  const xs = [...Array(w).keys()], ys = [...Array(hgt).keys()].map(k => hgt - k);   // top row first
  const hexEdge = {
    top: () => xs.flatMap(x => [corner(x, hgt, 4), corner(x, hgt, 5)]).concat([corner(w - 1, hgt, 0)]),
    bottom: () => xs.flatMap(x => [corner(x, 1, 3), corner(x, 1, 2)]).concat([corner(w - 1, 1, 1)]),
    left: () => ys.flatMap(y => [corner(0, y, 4), corner(0, y, 3)]),
    right: () => ys.flatMap(y => [corner(w - 1, y, 0), corner(w - 1, y, 1)].concat(y > 1 ? [corner(w - 1, y, 2)] : [])),
  };
  const x0 = pad, x1 = pad + w * size, y0 = pad, y1 = pad + hgt * size;
  const squareEdge = { top: () => [[x0, y0], [x1, y0]], bottom: () => [[x0, y1], [x1, y1]],
                       left: () => [[x0, y0], [x0, y1]], right: () => [[x1, y0], [x1, y1]] };
  return seatSides(board).map(([k, side]) => paint(s("polyline", {
    points: (hex ? hexEdge : squareEdge)[side]().map(p => p.join(",")).join(" "), class: "side",
  }), "stroke", playerColour(k)));
}
const graphLayouts = {};
function graphLayout(board) {
  // places spread out by a small force-directed layout, the same every time (no randomness)
  if (graphLayouts[board]) return graphLayouts[board];
  const nodes = D.boards[board];
  const near = D.borders[board] || nodes.map(() => []);
  const index = Object.fromEntries(nodes.map((n, k) => [n, k]));
  const n = nodes.length;
  const pos = nodes.map((_, k) => [Math.cos(2 * Math.PI * k / n) * 200 + (k % 3) * 7,
                                    Math.sin(2 * Math.PI * k / n) * 200 + (k % 5) * 5]);
  for (let step = 0; step < 400; step++) {
    const heat = 8 * (1 - step / 400) + 0.4;
    const force = pos.map(() => [0, 0]);
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
      const dx = pos[a][0] - pos[b][0], dy = pos[a][1] - pos[b][1];
      const d2 = Math.max(dx * dx + dy * dy, 1), f = 9000 / d2, d = Math.sqrt(d2);
      force[a][0] += f * dx / d; force[a][1] += f * dy / d;
      force[b][0] -= f * dx / d; force[b][1] -= f * dy / d;
    }
    near.forEach((list, a) => list.forEach(m => {
      const b = index[m]; if (b === undefined) return;
      const dx = pos[b][0] - pos[a][0], dy = pos[b][1] - pos[a][1];
      const d = Math.max(Math.sqrt(dx * dx + dy * dy), 1), f = (d - 90) * 0.05;
      force[a][0] += f * dx / d; force[a][1] += f * dy / d;
    }));
    pos.forEach((p, k) => {
      const [fx, fy] = force[k], len = Math.max(Math.hypot(fx, fy), 1e-9), m = Math.min(len, heat);
      p[0] += fx / len * m - p[0] * 0.002; p[1] += fy / len * m - p[1] * 0.002;
    });
  }
  lengthwise(pos);
  const xs = pos.map(p => p[0]), ys = pos.map(p => p[1]);
  const minX = Math.min(...xs), minY = Math.min(...ys);
  const out = { pos: pos.map(p => [p[0] - minX + 70, p[1] - minY + 40]),
                width: Math.max(...xs) - minX + 140, height: Math.max(...ys) - minY + 80, near, index };
  graphLayouts[board] = out;
  return out;
}
function lengthwise(pos) {
  // the forces leave a layout at any angle; turned so its long axis lies across (screens are
  // wider than tall), a map fits the table without shrinking its names
  const n = pos.length, mx = pos.reduce((a, p) => a + p[0], 0) / n, my = pos.reduce((a, p) => a + p[1], 0) / n;
  let xx = 0, yy = 0, xy = 0;
  for (const [x, y] of pos) { xx += (x - mx) ** 2; yy += (y - my) ** 2; xy += (x - mx) * (y - my); }
  const angle = 0.5 * Math.atan2(2 * xy, xx - yy), c = Math.cos(-angle), s = Math.sin(-angle);
  for (const p of pos) {
    const x = p[0] - mx, y = p[1] - my;
    p[0] = x * c - y * s; p[1] = x * s + y * c;
  }
}
function graphBoard(board) {
  const nodes = D.boards[board];
  const lay = graphLayout(board);
  const places = boardValues(board);
  const edges = [];
  lay.near.forEach((list, a) => list.forEach(m => {
    const b = lay.index[m];
    if (b !== undefined && a < b) edges.push(s("line", { x1: lay.pos[a][0], y1: lay.pos[a][1], x2: lay.pos[b][0], y2: lay.pos[b][1], class: "edge" }));
  }));
  const named = marked(board);
  const marks = nodes.map((place, k) => {
    const [x, y] = lay.pos[k];
    const ring = named[place] ? s("circle", { cx: x, cy: y, r: 27, class: "ring" }) : null;
    const at = places[place];
    const fill = placeFill(at);
    const state = placeState(place);
    const extra = at ? at.vars.filter(([, v]) => v !== null && v !== false && !(typeof v === "string" && seatOfLabel(v) !== null))
      .map(([k2, v]) => `${title(k2)}${v === true ? "" : ": " + valueText(v)}`).join(" · ") : "";
    return s("g", { class: `place node ${state}`, "data-place": place, onclick: () => clickPlace(place) },
      ring, named[place] ? s("text", { x, y: y - 31, class: "ring-text", text: named[place].join(", ") }) : null,
      s("circle", { cx: x, cy: y, r: 20, class: "node-disc", fill: fill || "#f4ead5" }),
      s("text", { x, y: y + 36, class: "node-name", text: place }),
      extra ? s("text", { x, y: y + 50, class: "node-extra", text: extra }) : null,
      s("title", { text: place + (extra ? ` (${extra})` : "") }));
  });
  const ground = lookOf("boards", board);
  const svg = s("svg", { viewBox: `0 0 ${lay.width} ${lay.height}`, width: lay.width, height: lay.height,
                         class: "board graph" + (ground ? " grounded" : "") },
    s("rect", { x: 0, y: 0, width: lay.width, height: lay.height, rx: 14, class: "board-bg map" }), edges, marks);
  paint(svg, "--ground", ground);
  return h("div", { class: "board-wrap" }, h("div", { class: "zone-title", text: title(board) }), svg);
}
function boardsInUse() {
  // the boards some variable or zone of the table is kept on
  const used = new Set();
  for (const name of Object.keys(T.vars)) { const i = varInfo(name); if (onBoard(i, name) && !(D.internal || []).includes(i.var)) used.add(i.board); }
  for (const name of Object.keys(T.zones)) { const z = zoneInfo(name); if (z.board && (z.owner === null || z.owner === undefined) && keysOf(name).length === 1) used.add(z.board); }
  for (const b of Object.keys(D.boards || {})) if (T.actions.length && T.actions.every(l => D.boards[b].includes(l))) used.add(b);
  for (const [, b] of T.on_boards || []) used.add(b);
  return [...used];
}
function onBoardZone(name) {
  const z = zoneInfo(name);
  return z.board && (z.owner === null || z.owner === undefined) && keysOf(name).length === 1;
}

// ------------------------------------------------------------------ the whole table
function render() {
  if (!D || !T) return;
  const me = T.seat;
  document.getElementById("title").textContent = D.name;
  document.getElementById("phase").textContent = T.phase.join(" › ");
  if (T.type === "replay") setStatus(`replay: after ${T.step} of ${T.steps} actions`, "waiting");
  else if (T.problem) setStatus(T.problem, "bad");
  else if (T.over) setStatus("game over", "over");
  else if (T.to_move === me) setStatus("your turn", "you");
  else if (T.thinking !== null) setStatus(`${seatName(T.thinking)} is thinking…`, "waiting");
  else setStatus(`waiting for ${seatName(T.to_move)}`, "waiting");
  const replay = T.type === "replay";
  document.getElementById("hint-button").hidden = replay || !(T.to_move === me && me !== null && !T.over);
  document.getElementById("undo-button").hidden = replay || !T.can_undo;

  renderReplayBar();
  renderOthers(me);
  renderMiddle();
  renderMine(me);
  renderPrompt(me);
  renderLog(me);
  if (T.over && !overShown && T.type !== "replay") { overShown = true; showOver(); }
}
function scoreOf(k) {
  const sc = T.scores || {};
  return sc[`P${k + 1}`];
}
function playerZones(k) {
  // as the terminal shows them: an empty zone is clutter, but for the seat's own hand
  const empty = c => Array.isArray(c) ? !c.length : !c.count;
  return Object.entries(T.zones).filter(([n, c]) => zoneInfo(n).owner === k && !onBoardZone(n) &&
    !(empty(c) && (k !== T.seat || zoneInfo(n).visibility === "public")));
}
function playerVars(k) {
  return Object.entries(T.vars).filter(([n]) => varInfo(n).owner === k && !hiddenVar(n));
}
function shownFor(key) {
  return (T.shown || []).filter(([, vals]) => key in vals).map(([t, vals]) => [t, vals[key]]);
}
function seatHeader(k, me) {
  const seat = T.seats[k];
  const turn = !T.over && T.to_move === k;
  const score = scoreOf(k);
  const won = T.over && T.winners.includes(`P${k + 1}`);
  return h("div", { class: "seat-head" },
    h("span", { class: "token", style: `background:${playerColour(k)}` }),
    h("span", { class: "seat-name", text: seatName(k) + (k === me ? " (you)" : "") }),
    h("span", { class: "seat-kind", text: seat.who }),
    turn ? h("span", { class: "turn" + (T.thinking === k ? " thinking" : ""), text: T.thinking === k ? "thinking" : "to move" }) : null,
    won ? h("span", { class: "turn won", text: "winner" }) : null,
    score !== undefined ? h("span", { class: "score", title: "score", text: valueText(score) }) : null);
}
function renderOthers(me) {
  const box = document.getElementById("others");
  box.replaceChildren();
  for (let k = 0; k < T.names.length; k++) {
    if (k === me) continue;
    const panel = h("div", { class: "seat" + (!T.over && T.to_move === k ? " active" : ""), "data-seat": k },
      seatHeader(k, me),
      h("div", { class: "seat-zones" }, playerZones(k).map(([n, c]) => zonePiece(n, c, k, false))),
      h("div", { class: "seat-vars" }, varPieces(playerVars(k)),
        shownFor(`P${k + 1}`).map(([t, v]) => h("div", { class: "var" }, h("span", { class: "k", text: t }), h("span", { class: "v", text: v })))));
    box.append(panel);
  }
}
function renderMiddle() {
  const boards = document.getElementById("boards");
  boards.replaceChildren();
  for (const b of boardsInUse()) {
    boards.append((D.grids || {})[b] ? gridBoard(b) : (D.layouts || {})[b] ? layoutBoard(b) : graphBoard(b));
  }
  const piles = document.getElementById("piles");
  piles.replaceChildren();
  for (const [name, cards] of Object.entries(T.zones)) {
    const z = zoneInfo(name);
    if ((z.owner !== null && z.owner !== undefined) || onBoardZone(name)) continue;
    piles.append(zonePiece(name, cards, null, false));
  }
  const vars = document.getElementById("table-vars");
  vars.replaceChildren();
  vars.append(...varPieces(Object.entries(T.vars).filter(([name]) => {
    const info = varInfo(name);
    return (info.owner === null || info.owner === undefined) && !hiddenVar(name);
  })));
  for (const [t, v] of shownFor("")) vars.append(h("div", { class: "var" }, h("span", { class: "k", text: t }), h("span", { class: "v", text: v })));
}
function renderMine(me) {
  const box = document.getElementById("mine");
  box.replaceChildren();
  if (me === null) { box.append(h("div", { class: "spectator", text: "You are watching: you see what every player sees." })); return; }
  box.className = "seat mine" + (!T.over && T.to_move === me ? " active" : "");
  box.append(seatHeader(me, me),
    h("div", { class: "seat-vars" }, varPieces(playerVars(me)),
      shownFor(`P${me + 1}`).map(([t, v]) => h("div", { class: "var" }, h("span", { class: "k", text: t }), h("span", { class: "v", text: v })))),
    h("div", { class: "seat-zones" }, playerZones(me).map(([n, c]) => zonePiece(n, c, me, true))));
}
function consumedByTable() {
  // options the table itself offers: a card shown somewhere, a board place
  const used = new Set();
  document.querySelectorAll(".card.playable").forEach(el => {
    const acts = cardActions(el.dataset.label);
    if (acts.length === 1) used.add(acts[0]);        // the card is that option ("pass X")
  });
  document.querySelectorAll(".chip").forEach(el => used.add(el.textContent));
  document.querySelectorAll(".place").forEach(el => {
    for (const l of placeActions(el.dataset.place)) used.add(l);
  });
  return used;
}
function renderPrompt(me) {
  const prompt = document.getElementById("prompt");
  const q = document.getElementById("question");
  const buttons = document.getElementById("buttons");
  const list = document.getElementById("option-list");
  buttons.replaceChildren();
  const mine = T.to_move === me && me !== null && !T.over && T.actions.length;
  prompt.className = mine ? "active" : "";
  if (T.type === "replay") {
    q.textContent = T.step === T.steps ? "The end of the game." : T.step === 0 ? "The deal, before the first action." :
      `After action ${T.step}: ${T.log.length ? T.log[T.log.length - 1] : ""}`;
    list.hidden = true;
    return;
  }
  if (!mine) {
    q.textContent = T.over ? "The game is over." : (T.thinking !== null ? `${seatName(T.thinking)} is thinking…` : `Waiting for ${seatName(T.to_move)}…`);
    list.hidden = true;
    return;
  }
  q.textContent = T.question || "Your move: choose one of the options.";
  if (selected) q.textContent += `  (from ${selected}: choose where)`;
  const used = consumedByTable();
  const rest = T.actions.filter(l => !used.has(l));
  if (rest.length <= 24) {
    for (const l of rest) buttons.append(h("button", { class: "option", onclick: () => play(l), text: l }));
  }
  if (used.size && rest.length <= 24) buttons.prepend(h("span", { class: "hint-text", text: used.size === T.actions.length ? "click a highlighted card or place" : "or click a highlighted card or place" }));
  // the whole list: open where the table cannot offer the options itself, else a toggle
  const many = rest.length > 24;
  list.hidden = !many;
  if (!many && T.actions.length > 8) buttons.append(h("button", { class: "option quiet", text: `all ${T.actions.length} options`,
    onclick: () => { list.hidden = !list.hidden; } }));
  fillList();
}
function fillList() {
  const ul = document.getElementById("options");
  const text = document.getElementById("option-filter").value.trim().toLowerCase();
  const hits = T.actions.filter(l => !text || l.toLowerCase().includes(text));
  ul.replaceChildren(...hits.slice(0, 200).map(l => h("li", {}, h("button", { class: "option", onclick: () => play(l), text: l }))));
  if (hits.length > 200) ul.append(h("li", { class: "more", text: `… ${hits.length - 200} more: type more of the option` }));
  if (!hits.length) ul.append(h("li", { class: "more", text: "no option holds that" }));
}
function showChoices(labels, what) {
  const buttons = document.getElementById("buttons");
  buttons.replaceChildren(h("span", { class: "hint-text", text: `${what || selected}:` }),
    ...labels.map(l => h("button", { class: "option", onclick: () => play(l), text: l })),
    h("button", { class: "option quiet", text: "back", onclick: () => { selected = null; render(); } }));
}
function renderLog(me) {
  const ol = document.getElementById("log");
  const mine = me === null ? null : new RegExp(`^${seatName(me)}\\b`);
  ol.replaceChildren(...T.log.map(line => h("li", { class: mine && mine.test(line) ? "me" : "" , text: line })));
  ol.scrollTop = ol.scrollHeight;
}
function rulesChanged(m) {
  // --watch: the rules file changed; check's errors, or a choice of how to go on
  const box = document.getElementById("changed");
  box.hidden = false;
  if (m.errors.length) {
    box.className = "bad";
    box.replaceChildren(h("b", { text: "The rules file changed and does not load:" }),
      h("pre", { text: m.errors.join("\n\n") }), h("span", { text: "Fix it and save: the table looks again." }));
    return;
  }
  box.className = "";
  const player = T && T.seat !== null;
  box.replaceChildren(h("b", { text: "The rules file changed. " }),
    player ? h("button", { text: "Restart the game", onclick: () => send({ reload: "restart" }) }) : null, " ",
    player && m.of ? h("button", { text: `Replay the same actions (${m.fits} of ${m.of} still fit)`, onclick: () => send({ reload: "replay" }) }) : null,
    player ? null : h("span", { text: "A player may restart the game with the new rules." }));
}
function replayStep(k) { send({ replay: k }); }
function renderReplayBar() {
  const bar = document.getElementById("replay-bar");
  if (T.type !== "replay") { bar.hidden = true; return; }
  bar.hidden = false;
  const n = T.steps, k = T.step;
  bar.replaceChildren(
    h("button", { title: "the start", text: "«", onclick: () => replayStep(0), disabled: k === 0 }),
    h("button", { title: "one action back", text: "◀", onclick: () => replayStep(k - 1), disabled: k === 0 }),
    h("input", { type: "range", min: 0, max: n, value: k, oninput: ev => replayStep(Number(ev.target.value)) }),
    h("button", { title: "one action on", text: "▶", onclick: () => replayStep(k + 1), disabled: k === n }),
    h("button", { title: "the end", text: "»", onclick: () => replayStep(n), disabled: k === n }),
    h("span", { class: "step", text: `${k} / ${n}` }),
    h("button", { class: "quiet", text: "leave the replay", onclick: () => { T = live; live = null; render(); } }));
}
function showOver() {
  const ws2 = T.winners;
  const mine = T.seat !== null && ws2[0] === `P${T.seat + 1}`;
  document.getElementById("over-title").textContent = !ws2.length ? "A draw: no winner" :
    ws2.length === 1 ? `${mine ? "You win" : seatName(seatOfLabel(ws2[0])) + " wins"}!` :
    `${ws2.map(w => seatName(seatOfLabel(w))).join(" and ")} share the win`;
  document.getElementById("over-how").textContent = T.log.length ? T.log[T.log.length - 1] : "";
  const table = document.getElementById("over-scores");
  table.replaceChildren(...T.names.map((n, k) => h("tr", { class: ws2.includes(`P${k + 1}`) ? "won" : "" },
    h("td", {}, h("span", { class: "token", style: `background:${playerColour(k)}` })),
    h("td", { text: n + (k === T.seat ? " (you)" : "") }),
    h("td", { text: T.seats[k].who }),
    h("td", { class: "num", text: scoreOf(k) !== undefined ? valueText(scoreOf(k)) : "" }))));
  document.getElementById("over").hidden = false;
}

// ------------------------------------------------------------------ panels
async function panel(heading, url) {
  document.getElementById("panel-title").textContent = heading;
  document.getElementById("panel-text").textContent = "…";
  document.getElementById("panel").hidden = false;
  const r = await fetch(url);
  const data = await r.json();
  document.getElementById("panel-text").textContent = (data.lines || [data.error]).join("\n");
}
function explain(label) { panel(label, `/api/rules/${TOKEN}?name=${encodeURIComponent(label)}`); }

document.getElementById("rules-button").onclick = () => panel("Rules", `/api/rules/${TOKEN}`);
document.getElementById("hint-button").onclick = () => { toast("the computer is looking…", 20000); send({ hint: true }); };
document.getElementById("undo-button").onclick = () => send({ undo: true });
document.querySelector("#panel .close").onclick = () => { document.getElementById("panel").hidden = true; };
document.getElementById("panel").onclick = ev => { if (ev.target.id === "panel") ev.target.hidden = true; };
document.getElementById("over-close").onclick = () => { document.getElementById("over").hidden = true; };
document.getElementById("over-replay").onclick = () => { document.getElementById("over").hidden = true; replayStep(0); };
document.getElementById("option-filter").oninput = fillList;
document.addEventListener("keydown", ev => {
  if (ev.key === "Escape") { document.getElementById("panel").hidden = true; selected = null; if (T) render(); }
});
connect();
