"use strict";
__SHARED_SCRIPT__
// Leaflet (Debian's libjs-leaflet, served by locemu serve) over the server's tiles; without
// it, the server's own SVG of the street map.
const leaflet = typeof L !== "undefined";
if (leaflet) document.body.classList.add("leaflet");
window.locemuCardMaps = {};
document.getElementById("world-map-link").href = withToken("map");
const cards = new Map();
let serverTraces = [];

// For people: degrees to 6 decimals (11 cm), metres and m/s to one; the exact values on hover.
function fixText(fix) {
  if (!fix) return "none";
  if (fix.lat === undefined) return "no fix (mode " + fix.mode + ")";
  let text = fix.lat.toFixed(6) + ", " + fix.lon.toFixed(6);
  if (fix.altMSL !== undefined) text += ", " + fix.altMSL.toFixed(1) + " m";
  if (fix.speed !== undefined) text += ", " + fix.speed.toFixed(1) + " m/s";
  if (fix.eph !== undefined) text += " ±" + fix.eph.toFixed(1) + " m";
  return text;
}
function fixExact(fix) {
  if (!fix || fix.lat === undefined) return "";
  return ["lat", "lon", "altMSL", "speed", "track", "eph", "epv"].filter((k) => fix[k] !== undefined).map((k) => k + " " + fix[k]).join(", ");
}

function render(state) {
  const card = cards.get(state.id);
  if (!card) return;
  const field = (name) => card.element.querySelector('[data-field="' + name + '"]');
  field("status").textContent = state.status;
  field("services").textContent = state.services;
  field("accuracy").textContent = state.accuracy;
  field("app").textContent = state.app;
  field("prompt").textContent = (state.promptOnScreen ? "on screen; " : "") + state.promptAnswer + " after " + state.promptDelay + " s";
  field("fix").textContent = state.fixLost ? "lost" : fixText(state.lastFix);
  field("fix").title = state.fixLost ? "" : fixExact(state.lastFix);
  const p = state.playing;
  const r = state.realism;
  // A phone that runs the lost-pets app shows its row at once (its state fills in from the app's lines).
  if (state.mapFeatures) {
    card.element.querySelector('[data-role="app-row"]').hidden = false;
    if (!card.app) field("lost-pets").textContent = "starting";
  }
  field("receiver").textContent = r && r.profile ? r.profile + ", seed " + (r.seed ?? 1) + ", " + (r.start || "cold") + " start" + (r.assisted === false ? ", standalone" : "") : "perfect";
  const where = p && p.position !== undefined && p.position !== null && p.total ? "fix " + p.position + " of " + p.total : p ? p.fixes + " fixes" : "";
  field("playing").textContent = p ? p.kind + " " + p.name + ": " + where + (p.ended ? ", ended" : "") + (p.paused ? ", paused" : "") : "nothing";
  // The seek bar: where the trace or route stands; dragging it (or the arrow keys) jumps.
  const seekRow = card.element.querySelector('[data-role="seek-row"]');
  const seek = card.element.querySelector('[data-input="seek"]');
  const seekable = p && p.kind !== "source" && p.total && p.position !== undefined && p.position !== null;
  seekRow.hidden = !seekable;
  if (seekable) {
    seek.max = String(Math.max(0, p.total - 1));
    if (!card.seeking) seek.value = String(Math.min(p.position, p.total - 1));
    card.element.querySelector('[data-role="seek-info"]').textContent = "fix " + p.position + " of " + p.total;
  }
  const fixKey = JSON.stringify(state.lastFix) + state.fixLost;
  if (fixKey !== card.fixKey) {
    card.fixKey = fixKey;
    if (card.map) updateMap(card, state); else drawMap(state.id);
  }
}

// The street map is Web Mercator between the corners its SVG states (north, west, south, east).
const mercator = (lat) => Math.log(Math.tan(Math.PI / 4 + lat * Math.PI / 360));
function project(card, lat, lon) {
  const [n, w, s, e] = card.corners;
  return [(lon - w) / (e - w) * card.width, (mercator(n) - mercator(lat)) / (mercator(n) - mercator(s)) * card.height];
}
function unproject(card, x, y) {
  const [n, w, s, e] = card.corners;
  const m = mercator(n) - y / card.height * (mercator(n) - mercator(s));
  return {lat: (2 * Math.atan(Math.exp(m)) - Math.PI / 2) * 180 / Math.PI, lon: w + x / card.width * (e - w)};
}

// The card's Leaflet map: the phone's position and accuracy circle, the trail of the fixes
// seen since the page opened, the waypoints laid; it follows the phone.
function makeMap(card, id) {
  const box = card.element.querySelector('[data-role="map"]');
  const map = L.map(box, {keyboard: true, zoomSnap: 1}).setView(defaultCenter, 17);
  addServerTiles(map);
  card.map = map;
  card.layers = phoneLayers(map);
  card.waypointLayer = L.layerGroup().addTo(map);
  window.locemuCardMaps[id] = map;
}

function updateMap(card, state) {
  const at = placePhone(card.layers, card.map, state);
  if (!at) return;
  // The first fix centres the map; later ones pan it only when the phone leaves the view.
  if (!card.placed) { card.map.setView(at, card.map.getZoom(), {animate: false}); card.placed = true; }
  else if (!card.map.getBounds().pad(-0.1).contains(at)) card.map.panTo(at, {animate: false});
}

async function drawMap(id) {
  const card = cards.get(id);
  // Fixes come faster than maps: only the newest request's map is drawn.
  const request = ++card.mapRequest;
  const response = await fetch(withToken("/phones/" + id + "/map.svg?view=street"));
  const svgText = response.ok ? await response.text() : null;
  if (svgText === null || !cards.has(id) || request !== card.mapRequest) return;
  const box = card.element.querySelector('[data-role="map"]');
  box.innerHTML = svgText;
  const svg = box.querySelector("svg");
  if (!svg || !svg.dataset.corners) return;
  card.corners = svg.dataset.corners.split(",").map(Number);
  card.width = Number(svg.getAttribute("width"));
  card.height = Number(svg.getAttribute("height"));
  drawWaypoints(card);
}

function drawWaypoints(card) {
  const svg = card.element.querySelector('[data-role="map"] svg');
  card.element.querySelector('[data-role="route-info"]').textContent =
    card.waypoints.length ? card.waypoints.length + " waypoint" + (card.waypoints.length > 1 ? "s" : "") : "";
  if (card.map) {
    card.waypointLayer.clearLayers();
    const points = card.waypoints.map((p) => [p.lat, p.lon]);
    if (points.length > 1) L.polyline(points, {className: "route", color: "#8E24AA", weight: 2, dashArray: "5 3"}).addTo(card.waypointLayer);
    for (const p of points) L.circleMarker(p, {className: "waypoint", radius: 5, stroke: false, fillColor: "#8E24AA", fillOpacity: 1}).addTo(card.waypointLayer);
    return;
  }
  if (!svg || !card.corners) return;
  for (const old of svg.querySelectorAll(".waypoints")) old.remove();
  const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
  g.setAttribute("class", "waypoints");
  const points = card.waypoints.map((p) => project(card, p.lat, p.lon));
  if (points.length > 1) {
    const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    line.setAttribute("points", points.map((p) => p.join(",")).join(" "));
    line.setAttribute("fill", "none"); line.setAttribute("stroke", "#8E24AA"); line.setAttribute("stroke-width", "2");
    line.setAttribute("stroke-dasharray", "5 3");
    g.appendChild(line);
  }
  for (const [x, y] of points) {
    const dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    dot.setAttribute("cx", x); dot.setAttribute("cy", y); dot.setAttribute("r", "5"); dot.setAttribute("fill", "#8E24AA");
    g.appendChild(dot);
  }
  svg.appendChild(g);
}

// A transcript line as text: its time, its event, its other members; a click shows the JSON.
function transcriptLine(json) {
  const line = document.createElement("div");
  line.className = "line";
  let record = null;
  try { record = JSON.parse(json); } catch (e) {}
  if (record && typeof record === "object") {
    const t = document.createElement("span");
    t.className = "t";
    t.textContent = (typeof record.t === "number" ? record.t.toFixed(3) : "?") + " s  ";
    const event = document.createElement("span");
    event.className = "event";
    event.textContent = record.event || "";
    const rest = Object.entries(record).filter(([k]) => k !== "t" && k !== "event")
      .map(([k, v]) => k + "=" + (typeof v === "object" ? JSON.stringify(v) : v)).join("  ");
    line.append(t, event, document.createTextNode(rest ? "  " + rest : ""));
  } else {
    line.textContent = json;
  }
  const raw = document.createElement("pre");
  raw.textContent = json;
  raw.hidden = true;
  line.appendChild(raw);
  line.addEventListener("click", () => { raw.hidden = !raw.hidden; });
  return line;
}

// The lost-pets app of a phone made with mapFeatures, from its lines on the transcript: the
// preview's state and the screen on top (render shows the row as soon as the state says mapFeatures).
function appLine(card, json) {
  let record = null;
  try { record = JSON.parse(json); } catch (e) { return; }
  if (!record || (record.event !== "preview" && record.event !== "navigation")) return;
  const app = card.app || (card.app = {preview: "", screen: "landing"});
  if (record.event === "preview") {
    app.preview = record.preview + (record.preview === "map" ? ", " + record.pins + " pins" : record.message ? ": " + record.message : "");
  } else {
    app.screen = record.screen;
  }
  card.element.querySelector('[data-role="app-row"]').hidden = false;
  card.element.querySelector('[data-field="lost-pets"]').textContent = "preview " + app.preview + "; on screen: " + app.screen;
}

async function refresh(id) {
  const state = await api("GET", "/phones/" + id);
  if (state) render(state);
}

function addCard(state) {
  const element = document.getElementById("phone-template").content.firstElementChild.cloneNode(true);
  const id = state.id;
  element.id = "phone-" + id;
  element.querySelector('[data-role="id"]').textContent = id;
  for (const name of ["status", "services", "accuracy", "app", "fix", "receiver", "playing", "lost-pets"]) {
    element.querySelector('[data-field="' + name + '"]').id = name + "-" + id;
  }
  element.querySelector('[data-role="map"]').id = "map-" + id;
  element.querySelector('[data-role="route-info"]').id = "route-info-" + id;
  element.querySelector('[data-role="transcript"]').id = "transcript-" + id;
  for (const button of element.querySelectorAll("button[data-name]")) button.id = button.dataset.name + "-" + id;
  for (const name of ["trace-file", "trace-name", "trace-speed", "trace-loop", "realism-profile", "realism-seed", "realism-start", "click-mode", "route-speed", "seek"]) {
    element.querySelector('[data-input="' + name + '"]').id = name + "-" + id;
  }
  const names = element.querySelector('[data-input="trace-name"]');
  for (const name of serverTraces) names.add(new Option(name, name));
  names.hidden = serverTraces.length === 0;
  for (const button of element.querySelectorAll("button[data-post]")) {
    button.addEventListener("click", async () => {
      const result = await api("POST", "/phones/" + id + "/" + button.dataset.post, JSON.parse(button.dataset.body || "{}"));
      if (result && result.id) render(result);
    });
  }
  const input = (name) => element.querySelector('[data-input="' + name + '"]').value.trim();
  element.querySelector('[data-action="set-location"]').addEventListener("click", async () => {
    const body = {lat: Number(input("lat")), lon: Number(input("lon"))};
    if (input("altitude")) body.altitude = Number(input("altitude"));
    if (input("speed")) body.speed = Number(input("speed"));
    const result = await api("POST", "/phones/" + id + "/location", body);
    if (result) render(result);
  });
  element.querySelector('[data-action="clear-location"]').addEventListener("click", async () => {
    const result = await api("DELETE", "/phones/" + id + "/location");
    if (result) render(result);
  });
  element.querySelector('[data-action="play-trace"]').addEventListener("click", async () => {
    // A file of this machine goes up as the request's body; a name plays the server's own.
    const file = element.querySelector('[data-input="trace-file"]').files[0];
    const name = input("trace-name");
    const speed = input("trace-speed") || "1";
    const loop = element.querySelector('[data-input="trace-loop"]').checked;
    let result = null;
    if (file) {
      const query = new URLSearchParams({name: file.name, speed, loop: String(loop)});
      const response = await fetch(withToken("/phones/" + id + "/trace?" + query), {method: "POST", headers: {"Content-Type": "application/octet-stream"}, body: file});
      const json = await response.json().catch(() => null);
      if (!response.ok) { showError(json && json.error ? json.error : "HTTP " + response.status); return; }
      showError("");
      result = json;
    } else if (name) {
      result = await api("POST", "/phones/" + id + "/trace", {name, speed: Number(speed), loop});
    } else {
      showError("choose a trace file, or one of the server's traces");
      return;
    }
    if (result) render(result);
  });
  // A click on the map: the location, or a waypoint.
  async function clicked(point) {
    const card = cards.get(id);
    if (input("click-mode") === "route") {
      card.waypoints.push(point);
      drawWaypoints(card);
      return;
    }
    const result = await api("POST", "/phones/" + id + "/location", point);
    if (result) render(result);
  }
  element.querySelector('[data-role="map"]').addEventListener("click", async (event) => {
    const card = cards.get(id);
    if (!card || card.map || !card.corners) return;
    const box = event.currentTarget.getBoundingClientRect();
    await clicked(unproject(card, event.clientX - box.left, event.clientY - box.top));
  });
  element.querySelector('[data-action="play-route"]').addEventListener("click", async () => {
    const card = cards.get(id);
    if (card.waypoints.length < 2) { showError("lay at least two waypoints: choose 'adds a waypoint' and click the map"); return; }
    const body = {waypoints: card.waypoints};
    if (input("route-speed")) body.speed = Number(input("route-speed"));
    const result = await api("POST", "/phones/" + id + "/route", body);
    if (result) render(result);
  });
  element.querySelector('[data-action="clear-route"]').addEventListener("click", () => {
    const card = cards.get(id);
    card.waypoints = [];
    drawWaypoints(card);
  });
  const seek = element.querySelector('[data-input="seek"]');
  seek.addEventListener("input", () => { cards.get(id).seeking = true; });
  seek.addEventListener("change", async () => {
    const result = await api("POST", "/phones/" + id + "/seek", {fix: Number(seek.value)});
    cards.get(id).seeking = false;
    if (result) render(result);
  });
  element.querySelector('[data-action="set-realism"]').addEventListener("click", async () => {
    // The receiver goes under what the phone plays next (a location set, a route, a trace).
    const profile = input("realism-profile");
    const body = profile ? {profile, start: input("realism-start")} : {profile: null};
    if (profile && input("realism-seed")) body.seed = Number(input("realism-seed"));
    const result = await api("POST", "/phones/" + id + "/realism", body);
    if (result) render(result);
  });
  element.querySelector('[data-action="prompt"]').addEventListener("click", async () => {
    const body = {answer: input("answer")};
    if (input("delay")) body.delay = Number(input("delay"));
    const result = await api("POST", "/phones/" + id + "/prompt", body);
    if (result) render(result);
  });
  element.querySelector('[data-action="delete"]').addEventListener("click", async () => {
    if (await api("DELETE", "/phones/" + id) !== null) removeCard(id);
  });
  document.getElementById("phones").appendChild(element);
  const events = new EventSource(withToken("/phones/" + id + "/events?history=200"));
  const transcript = element.querySelector('[data-role="transcript"]');
  events.onmessage = (message) => {
    transcript.appendChild(transcriptLine(message.data));
    const card = cards.get(id);
    if (card) appLine(card, message.data);
    while (transcript.childElementCount > 1000) transcript.firstElementChild.remove();
    transcript.scrollTop = transcript.scrollHeight;
    refresh(id);
    refreshClock();
  };
  events.onerror = () => { if (events.readyState === EventSource.CLOSED) removeCard(id); };
  const card = {element, events, fixKey: undefined, mapRequest: 0, corners: null, width: 640, height: 360, waypoints: []};
  cards.set(id, card);
  if (leaflet) {
    makeMap(card, id);
    card.map.on("click", (event) => { const ll = event.latlng.wrap(); clicked({lat: ll.lat, lon: ll.lng}); });
  }
  render(state);
}

function removeCard(id) {
  const card = cards.get(id);
  if (!card) return;
  card.events.close();
  if (card.map) { card.map.remove(); delete window.locemuCardMaps[id]; }
  card.element.remove();
  cards.delete(id);
}

async function refreshClock() {
  const clock = await api("GET", "/clock");
  if (!clock) return;
  document.getElementById("clock").textContent = (clock.virtual ? "virtual clock " : "real clock ") + clock.elapsed.toFixed(3) + " s";
  document.getElementById("advance-box").hidden = !clock.virtual;
}

document.getElementById("new-phone").addEventListener("click", async () => {
  const state = await api("POST", "/phones", {});
  if (state) addCard(state);
});
document.getElementById("advance").addEventListener("click", async () => {
  const seconds = Number(document.getElementById("advance-seconds").value);
  if (await api("POST", "/clock/advance", {seconds})) { for (const id of cards.keys()) refresh(id); refreshClock(); }
});

(async () => {
  const traces = await api("GET", "/traces");
  if (traces) serverTraces = traces.names;
  const list = await api("GET", "/phones");
  if (list) for (const state of list.phones) addCard(state);
  refreshClock();
  document.body.dataset.ready = "true";
})();
