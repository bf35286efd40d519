// The Food Chain Magnate table: draws views sent by the fcm web server and sends the human's moves.
// One websocket; every message gets exactly one reply, in order (docs/web.md lists the messages).
"use strict";

const PLAYER_COLORS = ["#d22d2d", "#2850c8", "#239141", "#8741b9", "#1e1e1e"];
const GOOD_COLORS = {burger: "#784623", pizza: "#f07d23", beer: "#ebc32d", lemonade: "#f596c3", soda: "#5ac3eb"};
const DRINK_CHARS = {b: "beer", l: "lemonade", s: "soda"};
const CAMPAIGN_LETTER = {billboard: "B", mailbox: "M", radio: "R", airplane: "A"};
const PLACEMENTS = new Set(["PLACE_RESTAURANT", "PLACE_HOUSE", "PLACE_GARDEN", "PLACE_CAMPAIGN"]);
const CELL = 36;
const SVGNS = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);
const words = (key) => String(key).replaceAll("_", " ");
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
// places count from 1st, as every text for people does (fcm_env.text.words.ordinal)
function ordinal(n) {
  const suffix = n % 100 >= 10 && n % 100 <= 20 ? "th" : ({1: "st", 2: "nd", 3: "rd"}[n % 10] || "th");
  return `${n}${suffix}`;
}

// ------------------------------------------------------------------ the connection

const pending = [];
let socket = null;

function connect() {
  return new Promise((resolve) => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${proto}://${location.host}/ws`);
    socket.onopen = () => resolve();
    socket.onmessage = (ev) => {
      const waiter = pending.shift();
      if (waiter) waiter(JSON.parse(ev.data));
    };
    socket.onclose = (ev) =>
      setStatus(`connection closed: ${ev.reason || "restart fcm web and reload the page"}`);
  });
}

function request(message) {
  return new Promise((resolve) => {
    pending.push(resolve);
    socket.send(JSON.stringify(message));
  });
}

async function send(message) {
  document.body.classList.add("busy");
  try {
    const reply = await request(message);
    if (reply.type === "error") showError(reply.error);
    else hideError();
    return reply;
  } finally {
    document.body.classList.remove("busy");
  }
}

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
}

function hideError() {
  $("error").hidden = true;
}

function setStatus(text) {
  $("status-line").textContent = text;
}

// ------------------------------------------------------------------ SVG helpers

function el(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// squares -> pixel box (the map sits inside a one-square margin where airplanes fly)
const px = (c) => (c + 1) * CELL;

function bbox(squares) {
  const rows = squares.map((s) => s[0]);
  const cols = squares.map((s) => s[1]);
  const r0 = Math.min(...rows), c0 = Math.min(...cols);
  return {x: px(c0), y: px(r0), w: (Math.max(...cols) - c0 + 1) * CELL, h: (Math.max(...rows) - r0 + 1) * CELL};
}

function boxRect(squares, attrs, parent, inset = 0) {
  const b = bbox(squares);
  return el("rect", {x: b.x + inset, y: b.y + inset, width: b.w - 2 * inset, height: b.h - 2 * inset, ...attrs}, parent);
}

// ------------------------------------------------------------------ the map

function drawMap(svg, view) {
  svg.replaceChildren();
  svg.parentElement.classList.add("drawn");  // the map shows, its placeholder line goes (table.css)
  const {height, width, squares} = view.map;
  svg.setAttribute("viewBox", `0 0 ${(width + 2) * CELL} ${(height + 2) * CELL}`);
  el("rect", {x: 0, y: 0, width: (width + 2) * CELL, height: (height + 2) * CELL, class: "margin"}, svg);
  const ground = el("g", {}, svg);
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const ch = squares[r][c];
      const cls = ch === "#" ? "road" : ch === "X" ? "bridge" : ch in DRINK_CHARS ? "drink" : "empty";
      el("rect", {x: px(c), y: px(r), width: CELL, height: CELL, class: `sq ${cls}`}, ground);
      if (ch in DRINK_CHARS) {
        const good = DRINK_CHARS[ch];
        el("circle", {cx: px(c) + CELL / 2, cy: px(r) + CELL / 2, r: CELL * 0.36, fill: GOOD_COLORS[good],
          class: "drink-token"}, ground);
        el("text", {x: px(c) + CELL / 2, y: px(r) + CELL / 2, class: "drink-label"}, ground, good[0].toUpperCase());
      } else if (ch === "X") {
        el("line", {x1: px(c) + 5, y1: px(r) + 5, x2: px(c) + CELL - 5, y2: px(r) + CELL - 5, class: "bridge-mark"}, ground);
      }
    }
  }
  drawRoadLines(ground, squares, height, width);
  // tile borders every 5 squares, indices in the margin
  for (let k = 0; k <= width; k += 5) el("line", {x1: px(k), y1: px(0), x2: px(k), y2: px(height), class: "tile-edge"}, svg);
  for (let k = 0; k <= height; k += 5) el("line", {x1: px(0), y1: px(k), x2: px(width), y2: px(k), class: "tile-edge"}, svg);
  for (let c = 0; c < width; c++) el("text", {x: px(c) + CELL / 2, y: CELL / 2, class: "index"}, svg, c);
  for (let r = 0; r < height; r++) el("text", {x: CELL / 2, y: px(r) + CELL / 2, class: "index"}, svg, r);
  for (const house of view.houses) drawHouse(svg, house);
  for (const campaign of view.campaigns) drawCampaign(svg, campaign);
  for (const rest of view.restaurants) drawRestaurant(svg, rest);
  return svg;
}

function drawRoadLines(g, squares, height, width) {
  // a dashed centre line joining neighbouring road squares
  const isRoad = (r, c) => r >= 0 && c >= 0 && r < height && c < width && "#X".includes(squares[r][c]);
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      if (!isRoad(r, c)) continue;
      const cx = px(c) + CELL / 2, cy = px(r) + CELL / 2;
      if (isRoad(r, c + 1)) el("line", {x1: cx, y1: cy, x2: cx + CELL, y2: cy, class: "road-line"}, g);
      if (isRoad(r + 1, c)) el("line", {x1: cx, y1: cy, x2: cx, y2: cy + CELL, class: "road-line"}, g);
    }
  }
}

function drawHouse(svg, house) {
  const g = el("g", {class: "house"}, svg);
  if (house.garden.length) boxRect(house.garden, {class: "garden"}, g, 1);
  boxRect(house.squares, {class: "house-body", rx: 4}, g, 2);
  const b = bbox(house.squares);
  el("text", {x: b.x + b.w / 2, y: b.y + b.h / 2 - 4, class: "house-number"}, g, house.number);
  // demand tokens along the bottom of the house
  const n = house.demand.length;
  if (n) {
    el("rect", {x: b.x + b.w / 2 - n * 6.5 - 3, y: b.y + b.h - 18, width: n * 13 + 6, height: 16, rx: 8,
      class: "demand-strip"}, g);
  }
  house.demand.forEach((good, i) => {
    const x = b.x + b.w / 2 + (i - (n - 1) / 2) * 13;
    el("circle", {cx: x, cy: b.y + b.h - 10, r: 6, fill: GOOD_COLORS[good], class: "demand"}, g)
      .appendChild(el("title", {}, null, good));
  });
  el("title", {}, g, `house ${house.number}${house.garden.length ? " with garden" : ""}: ` +
    (n ? `wants ${house.demand.join(", ")}` : "no demand") + ` (room for ${house.demand_limit})`);
}

function drawRestaurant(svg, rest) {
  const color = PLAYER_COLORS[rest.owner];
  const g = el("g", {class: "restaurant" + (rest.coming_soon ? " soon" : "")}, svg);
  boxRect(rest.squares, {fill: color, rx: 5, class: "restaurant-body"}, g, 2);
  const [er, ec] = rest.entrance;
  el("circle", {cx: px(ec) + CELL / 2, cy: px(er) + CELL / 2, r: CELL * 0.3, class: "entrance", stroke: color}, g);
  el("text", {x: px(ec) + CELL / 2, y: px(er) + CELL / 2, class: "entrance-label", fill: color}, g, `P${rest.owner}`);
  el("title", {}, g, `player ${rest.owner}'s restaurant ${rest.index + 1}${rest.coming_soon ? " (coming soon)" : ""}`);
}

function drawCampaign(svg, campaign) {
  const squares = campaign.type === "airplane" ? campaign.lane : campaign.squares;
  if (!squares || !squares.length) return;
  const g = el("g", {class: "campaign"}, svg);
  boxRect(squares, {fill: GOOD_COLORS[campaign.product], stroke: PLAYER_COLORS[campaign.owner], class: "campaign-body",
    rx: 3}, g, 3);
  const b = bbox(squares);
  const left = campaign.eternal ? "∞" : campaign.remaining;
  const cx = b.x + b.w / 2, cy = b.y + b.h / 2;
  const label = el("text", {x: cx, y: cy, class: "campaign-label"}, g,
    `${CAMPAIGN_LETTER[campaign.type]}${campaign.number} ×${left}`);
  if (b.h > b.w) label.setAttribute("transform", `rotate(-90 ${cx} ${cy})`);  // tall tiles: read bottom-up
  el("title", {}, g, `campaign #${campaign.number} ${campaign.type} of player ${campaign.owner}: ${campaign.product}, ` +
    (campaign.eternal ? "runs for ever" : `${campaign.remaining} turn(s) left`));
}

// ------------------------------------------------------------------ companies

function cardList(parent, title, cards, empty = "none") {
  const row = html("div", {class: "cards-row"}, parent);
  html("span", {class: "cards-title"}, row, title);
  const entries = Object.entries(cards || {});
  if (!entries.length) html("span", {class: "muted"}, row, empty);
  for (const [key, n] of entries) {
    html("span", {class: "chip employee", title: cardText(key), "data-card": key}, row, n > 1 ? `${words(key)} ×${n}` : words(key));
  }
}

// what an employee card does, its salary and what it trains into (hello.cards, fcm_env.text.cards): a chip's tooltip
const cardText = (key) => (hello.cards && hello.cards[key]) || words(key);

// a milestone as the log names it ("First burger produced"): the server's words (hello.milestones)
const milestoneName = (key) => (hello.milestones && hello.milestones[key]) || cap(words(key));
// what it does, the card's whole text (hello.milestone_effects): the chip's tooltip
const milestoneEffect = (key) => (hello.milestone_effects && hello.milestone_effects[key]) || "";

function drawPlayers(box, view, names) {
  box.replaceChildren();
  const order = view.turn_order.length ? view.turn_order : view.players.map((p) => p.player);
  for (const pid of order) {
    const p = view.players[pid];
    const me = pid === view.you && !view.full;
    const card = html("div", {class: "company" + (me ? " me" : ""), "data-player": pid}, box);
    card.style.borderTopColor = PLAYER_COLORS[pid];
    const head = html("div", {class: "company-head"}, card);
    html("span", {class: "dot"}, head).style.background = PLAYER_COLORS[pid];
    const who = me ? "you" : names && names[pid] ? names[pid] : "human";
    html("b", {}, head, who === `player ${pid}` ? who : `player ${pid} (${who})`);
    html("span", {class: "cash"}, head, `$${p.cash}`);
    const facts = [];
    if (p.seat !== null) facts.push(`${ordinal(p.seat + 1)} in turn order`);
    facts.push(`${p.restaurants} restaurant${p.restaurants === 1 ? "" : "s"}`);
    facts.push(p.reserve === null ? "reserve ?" : `reserve $${p.reserve}`);
    if (p.bankrupt) facts.push("bankrupt");
    if (view.pending && view.pending.player === pid) facts.push("to move");
    html("div", {class: "facts muted"}, card, facts.join(" · "));
    cardList(card, "At work", p.work);
    if (me || view.full || Object.keys(p.hand).length) cardList(card, "Hand", p.hand);
    if (Object.keys(p.beach).length) cardList(card, "Beach", p.beach);
    if (Object.keys(p.busy).length) cardList(card, "Busy", p.busy);
    if (p.structure_hidden) html("div", {class: "muted small"}, card, "structure face down");
    const stock = html("div", {class: "cards-row"}, card);
    html("span", {class: "cards-title"}, stock, "Stock");
    const goods = Object.entries(p.stock);
    if (!goods.length) html("span", {class: "muted"}, stock, "none");
    for (const [good, n] of goods) {
      const chip = html("span", {class: "chip good"}, stock, `${good} ×${n}`);
      chip.style.borderColor = GOOD_COLORS[good];
    }
    if (p.milestones.length) {
      const ms = html("div", {class: "cards-row"}, card);
      html("span", {class: "cards-title"}, ms, "Milestones");
      for (const m of p.milestones) html("span", {class: "chip milestone", title: milestoneEffect(m)}, ms, milestoneName(m));
    }
  }
}

// a table or replay message's state line: the heading (fcm play's words: "Round 3: phase 5: payday") and the bank
function statusText(msg) {
  const view = msg.view;
  const where = msg.heading ? cap(msg.heading) : `Round ${view.round} · ${words(view.phase).toLowerCase()}`;
  const bank = `bank $${view.bank}` + (view.bank_breaks ? ` (broke ${view.bank_breaks}×)` : "");
  if (view.over) {
    const cash = view.players.map((p) => `player ${p.player} $${p.cash}`).join(", ");
    return `Game over: winner${view.winners.length > 1 ? "s" : ""} ${view.winners.map((w) => "player " + w).join(", ")} · ${cash}`;
  }
  return `${where} · ${bank}`;
}

// ------------------------------------------------------------------ log

function logLine(list, entry, lastHeader) {
  const header = entry.heading ? cap(entry.heading) : `Round ${entry.round} · ${words(entry.phase)}`;
  if (header !== lastHeader) html("li", {class: "log-header"}, list, header);
  const li = html("li", {class: `log-line kind-${entry.kind}`}, list);
  if (entry.player !== null && entry.player !== undefined) {
    html("span", {class: "dot"}, li).style.background = PLAYER_COLORS[entry.player];
  }
  const body = html("span", {}, li, entry.text);
  // a milestone you claimed: what it does, under the line (as fcm play prints it)
  if (entry.detail) html("span", {class: "log-detail"}, body, entry.detail);
  return header;
}

// ------------------------------------------------------------------ play

const play = {table: null, header: null, orient: null, hover: null, byKey: new Map()};

function onTable(msg) {
  play.table = msg;
  const view = msg.view;
  $("start").hidden = true;
  $("decision").hidden = false;
  $("save").disabled = false;
  setStatus(statusText(msg));
  drawMap($("map"), view);
  drawPlayers($("players"), view, msg.players);
  for (const entry of msg.log) play.header = logLine($("log"), entry, play.header);
  $("log").scrollTop = $("log").scrollHeight;
  drawDecision(msg);
}

// a choice in the words of fcm play's list (the server's "text", fcm_env.text.words.action_text)
function actionLabel(action, view) {
  if (action.kind === "PASS") return view.pending && view.pending.decision === "INITIAL_RESTAURANT" ? "pass (place later)" : "pass / done";
  return cap(action.text || words(action.label));
}

function drawDecision(msg) {
  const view = msg.view;
  const actions = $("actions");
  actions.replaceChildren();
  const place = msg.legal.filter((a) => PLACEMENTS.has(a.kind));
  const others = msg.legal.filter((a) => !PLACEMENTS.has(a.kind));
  if (view.over) {
    $("decision-title").textContent = "Game over";
    $("decision-text").textContent = statusText(msg);
  } else if (view.pending && view.pending.you) {
    $("decision-title").textContent = `Your decision (${words(view.pending.decision).toLowerCase()})`;
    $("decision-text").textContent = cap(view.pending.text) + ".";
  } else {
    $("decision-title").textContent = "Waiting";
    $("decision-text").textContent = view.pending ? `Player ${view.pending.player} decides.` : "";
  }
  // why the decision is as it is (a firing at Payday: what you owe against your cash), as fcm play says it
  const explain = $("decision-explain");
  explain.textContent = !view.over && msg.explain ? cap(msg.explain) + "." : "";
  explain.hidden = !explain.textContent;
  for (const action of others) {
    const attrs = {class: "action" + (action.kind === "PASS" ? " pass" : ""), "data-id": action.id,
      "data-kind": action.kind, type: "button"};
    if (action.card) attrs.title = action.card;  // the cards the choice names: what they do
    const b = html("button", attrs, actions, actionLabel(action, view));
    if (action.card) html("span", {class: "effect"}, b, action.card);  // shown, not only on hover
    b.addEventListener("click", () => act(action.id));
  }
  setupPlacement(place, view);
}

function setupPlacement(place, view) {
  play.byKey = new Map();
  play.hover = null;
  for (const action of place) {
    const key = action.shape.key.join(",");
    if (!play.byKey.has(key)) play.byKey.set(key, []);
    play.byKey.get(key).push(action);
  }
  $("placement").hidden = place.length === 0;
  if (!place.length) return;
  const what = words(place[0].kind.replace("PLACE_", "")).toLowerCase();
  const where = {restaurant: "its entrance", house: "the house's top-left square", garden: "the garden's top-left square",
    campaign: "its top-left square"}[what];
  $("placement-hint").textContent = `Click a highlighted square on the map to place the ${what} (${where}); ` +
    `hover to preview, rotate for the other legal orientations there.`;
  const svg = $("map");
  const layer = el("g", {class: "hits"}, svg);
  for (const [key, list] of play.byKey) {
    const [r, c] = key.split(",").map(Number);
    const hit = el("rect", {x: px(c) + 1, y: px(r) + 1, width: CELL - 2, height: CELL - 2, class: "hit",
      "data-key": key, "data-count": list.length}, layer);
    hit.addEventListener("mouseenter", () => { play.hover = key; preview(); });
    hit.addEventListener("click", () => { play.hover = key; choosePlacement(); });
  }
  el("g", {id: "preview"}, svg);
  preview();
}

// the chosen orientation carries over from square to square where it is legal there too
function currentIndex(list) {
  const i = list.findIndex((a) => a.params.orientation === play.orient);
  return i < 0 ? 0 : i;
}

function currentPlacement() {
  const list = play.hover ? play.byKey.get(play.hover) : null;
  return list && list.length ? list[currentIndex(list)] : null;
}

function preview() {
  const layer = $("preview");
  if (!layer) return;
  layer.replaceChildren();
  const action = currentPlacement();
  const list = play.hover ? play.byKey.get(play.hover) || [] : [];
  // a campaign spot names the houses it would reach (the server's "reach")
  const reach = action && action.reach ? (action.reach.length ? ` (reaches houses ${action.reach.join(", ")})`
    : " (reaches no house)") : "";
  $("rotate-info").textContent = action ? `${currentIndex(list) + 1} of ${list.length}: ${action.text || action.label}${reach}` : "";
  $("rotate").disabled = list.length < 2;
  if (!action) return;
  const color = PLAYER_COLORS[play.table.view.you];
  const s = action.shape;
  if (s.garden.length) boxRect(s.garden, {class: "preview-garden"}, layer, 1);
  boxRect(s.squares, {class: "preview-body", stroke: color}, layer, 2);
  if (s.entrance) {
    el("circle", {cx: px(s.entrance[1]) + CELL / 2, cy: px(s.entrance[0]) + CELL / 2, r: CELL * 0.3,
      class: "entrance", stroke: color}, layer);
  }
}

function rotate() {
  const list = play.hover ? play.byKey.get(play.hover) || [] : [];
  if (list.length < 2) return;
  play.orient = list[(currentIndex(list) + 1) % list.length].params.orientation;
  preview();
}

function choosePlacement() {
  const action = currentPlacement();
  if (action) act(action.id);
}

async function act(id) {
  const reply = await send({type: "act", action: id});
  if (reply.type === "table") onTable(reply);
}

// ------------------------------------------------------------------ start form

let hello = {bots: ["random", "heuristic", "policy", "search"]};

function fillForm() {
  const n = Number($("f-players").value);
  const human = $("f-human");
  const keep = Math.min(Number(human.value || 0), n - 1);
  human.replaceChildren();
  for (let p = 0; p < n; p++) html("option", {value: p}, human, `${p}`);
  human.value = keep;
  const bots = $("f-bots");
  bots.replaceChildren();
  for (let p = 0; p < n; p++) {
    if (p === keep) continue;
    const label = html("label", {}, bots, `Player ${p} is played by `);
    const select = html("select", {"data-seat": p, class: "bot-spec"}, label);
    for (const spec of hello.bots) html("option", {value: spec}, select, spec);
    select.value = "heuristic";
  }
}

async function startGame(ev) {
  ev.preventDefault();
  const bots = {};
  for (const s of document.querySelectorAll(".bot-spec")) bots[s.dataset.seat] = s.value;
  const msg = {type: "new", num_players: Number($("f-players").value), human: Number($("f-human").value),
    seed: Number($("f-seed").value || 0), variant: $("f-variant").value, bots};
  if ($("f-rounds").value) msg.max_rounds = Number($("f-rounds").value);
  const reply = await send(msg);
  if (reply.type === "table") {
    $("log").replaceChildren();
    play.header = null;
    onTable(reply);
  }
}

async function saveGame() {
  const reply = await send({type: "save"});
  if (reply.type !== "saved") return;
  const a = html("a", {href: reply.url, download: reply.filename}, document.body);
  a.click();
  a.remove();
}

async function readFile(input) {
  const file = input.files[0];
  input.value = "";
  if (!file) return null;
  try {
    return {name: file.name, doc: JSON.parse(await file.text())};
  } catch (err) {
    showError(`${file.name}: not a JSON file (${err.message})`);
    return null;
  }
}

async function loadGame(ev) {
  const file = await readFile(ev.target);
  if (!file) return;
  const reply = await send({type: "load", document: file.doc});
  if (reply.type === "table") {
    $("log").replaceChildren();
    play.header = null;
    onTable(reply);
  }
}

// ------------------------------------------------------------------ replay

const rp = {msg: null};

function onReplay(msg) {
  rp.msg = msg;
  $("rp-title").textContent = `Replay: ${msg.name}`;
  const slider = $("rp-slider");
  slider.max = msg.total;
  slider.value = msg.step;
  $("rp-step").textContent = `step ${msg.step} / ${msg.total}`;
  const rounds = $("rp-round");
  if (rounds.dataset.name !== msg.name || rounds.options.length !== msg.rounds.length) {
    rounds.replaceChildren();
    for (const [round, step] of msg.rounds) html("option", {value: step}, rounds, round === 0 ? "setup" : round);
    rounds.dataset.name = msg.name;
  }
  let current = msg.rounds[0][1];
  for (const [, step] of msg.rounds) if (step <= msg.step) current = step;
  rounds.value = current;
  const view = msg.view;
  drawMap($("rp-map"), view);
  drawPlayers($("rp-players"), view, msg.players);
  // the move in the words of fcm replay --list and the log (the server's "text")
  $("rp-move").textContent = msg.move
    ? `Step ${msg.step}: player ${msg.move.player} (${msg.move.decision_text || words(msg.move.decision).toLowerCase()}): ` +
      `${msg.move.text || msg.move.label}`
    : "The start of the game.";
  $("rp-pending").textContent = view.over ? statusText(msg) : `${statusText(msg)} · next: player ${view.pending.player} ` +
    `to ${view.pending.text}`;
  const list = $("rp-events");
  list.replaceChildren();
  let header = null;
  for (const entry of msg.events) header = logLine(list, entry, header);
  if (!msg.events.length) html("li", {class: "muted"}, list, "no events");
  setStatus(`Replay · ${statusText(msg)}`);
}

async function replayStep(step) {
  if (!rp.msg) return;
  const target = Math.max(0, Math.min(rp.msg.total, step));
  const reply = await send({type: "replay_step", step: target});
  if (reply.type === "replay") onReplay(reply);
}

async function openReplayFile(ev) {
  const file = await readFile(ev.target);
  if (!file) return;
  const record = file.doc && file.doc.format === "fcm-magnate/web-save" ? file.doc.record : file.doc;
  const reply = await send({type: "replay_open", record, name: file.name});
  if (reply.type === "replay") onReplay(reply);
}

async function openServerReplay() {
  const reply = await send({type: "replay_open", server: true});
  if (reply.type === "replay") onReplay(reply);
}

// ------------------------------------------------------------------ wiring

function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.tab === name);
  $("play").hidden = name !== "play";
  $("replay").hidden = name !== "replay";
  $("play-tools").hidden = name !== "play";
  if (name === "play") setStatus(play.table ? statusText(play.table) : "start a game");
  else if (rp.msg) setStatus(`Replay · ${statusText(rp.msg)}`);
  else setStatus("open a record to replay");
}

async function main() {
  await connect();
  hello = await send({type: "hello"});
  fillForm();
  setStatus("start a game");
  $("f-players").addEventListener("change", fillForm);
  $("f-human").addEventListener("change", fillForm);
  $("start").addEventListener("submit", startGame);
  $("new-game").addEventListener("click", () => { $("start").hidden = false; $("decision").hidden = true; });
  $("save").addEventListener("click", saveGame);
  $("load-file").addEventListener("change", loadGame);
  $("rotate").addEventListener("click", rotate);
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("replay-file").addEventListener("change", openReplayFile);
  $("replay-server").addEventListener("click", openServerReplay);
  $("rp-first").addEventListener("click", () => replayStep(0));
  $("rp-prev").addEventListener("click", () => replayStep(rp.msg.step - 1));
  $("rp-next").addEventListener("click", () => replayStep(rp.msg.step + 1));
  $("rp-last").addEventListener("click", () => replayStep(rp.msg.total));
  $("rp-slider").addEventListener("change", (ev) => replayStep(Number(ev.target.value)));
  $("rp-round").addEventListener("change", (ev) => replayStep(Number(ev.target.value)));
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    if (!$("play").hidden && (ev.key === "r" || ev.key === "R")) rotate();
    if (!$("replay").hidden && rp.msg && ev.key === "ArrowRight") replayStep(rp.msg.step + 1);
    if (!$("replay").hidden && rp.msg && ev.key === "ArrowLeft") replayStep(rp.msg.step - 1);
  });
  if (hello.replay) {
    $("replay-server").hidden = false;
    $("replay-server").textContent = `Open ${hello.replay}`;
    showTab("replay");
    await openServerReplay();
  }
  document.body.dataset.ready = "1";
}

main();
