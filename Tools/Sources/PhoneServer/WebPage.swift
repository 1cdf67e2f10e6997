import Foundation
import Geo
import LocationServices

/// The page `locemu serve` serves at `/`: every phone's state, a map that follows it (Leaflet
/// over the server's tiles, from the world to the street: the phone, its accuracy circle, the
/// trail of the fixes seen since the page opened; without Debian's libjs-leaflet, the server's
/// SVG street map, `/phones/{id}/map.svg?view=street`, redrawn on each fix; a click sets the
/// location, or lays a route's waypoints that play at a chosen speed), its transcript as readable lines as it happens (the
/// event stream; a click on a line shows its JSON), and buttons and fields for the controls of
/// the API. Plain HTML and JavaScript, no
/// build step, nothing fetched from elsewhere. With a token, open `/?token=TOKEN`: the page
/// passes it on.
///
/// Elements a test can find: `#phone-ID` (a phone's card), `#status-ID`, `#services-ID`,
/// `#accuracy-ID`, `#app-ID`, `#fix-ID`, `#map-ID` (the map: Leaflet's container, its layers' paths
/// of class `user`, `accuracy`, `trail`, `waypoint` and `route`, the map itself in
/// `window.locemuCardMaps[ID]`; without Leaflet, an inline SVG with `data-corners`),
/// `#click-mode-ID` (`set` or `route`), `#route-speed-ID`, `#play-route-ID`, `#clear-route-ID`,
/// `#route-info-ID`, `#pause-ID`, `#resume-ID`, `#playing-ID`, `#seek-ID` (the seek bar: a range of
/// the fixes of what plays, hidden for a source), `#transcript-ID` (lines of class `line`), and buttons `#grant-ID`,
/// `#always-ID`, `#revoke-ID`, `#reset-ID`, `#restrict-ID`, `#services-on-ID`, …, and for a
/// trace `#trace-file-ID` (a file of the browser's machine, uploaded), `#trace-name-ID` (the
/// server's `--traces`), `#trace-speed-ID`, `#trace-loop-ID`, `#play-trace-ID`, and for a
/// realistic receiver `#receiver-ID` (what the state says), `#realism-profile-ID` (off or a
/// built-in profile), `#realism-seed-ID`, `#realism-start-ID`, `#set-realism-ID`.
enum WebPage {
  /// The page, with `defaultCenter` where a phone without a fix is shown.
  static func html(defaultCenter: Coordinate) -> String { page(template, defaultCenter: defaultCenter) }

  /// `template` (this page's or ``WorldMapPage``'s) with ``sharedScript`` in place of
  /// `__SHARED_SCRIPT__` and `defaultCenter` in place of `__DEFAULT_CENTER__`.
  static func page(_ template: String, defaultCenter: Coordinate) -> String {
    template.replacingOccurrences(of: "__SHARED_SCRIPT__", with: sharedScript)
      .replacingOccurrences(of: "__DEFAULT_CENTER__", with: "[\(defaultCenter.latitude), \(defaultCenter.longitude)]")
  }

  /// What both pages' scripts start with: where a phone without a fix is shown, the token passed
  /// on, the API with its errors shown in `#error`, and on Leaflet the server's tiles and a
  /// phone's layers (paths of class `user`, `accuracy` and `trail`).
  static let sharedScript = #"""
    // Where a phone without a fix is shown: the middle of the server's city map, else --fixed's default.
    const defaultCenter = __DEFAULT_CENTER__;
    const token = new URLSearchParams(location.search).get("token");
    const withToken = (path) => token ? path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : path;

    function showError(message) { document.getElementById("error").textContent = message || ""; }

    async function api(method, path, body) {
      const response = await fetch(withToken(path), {
        method, headers: body ? {"Content-Type": "application/json"} : {}, body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      const json = text ? JSON.parse(text) : null;
      if (!response.ok) { showError(json && json.error ? json.error : "HTTP " + response.status); return null; }
      showError("");
      return json;
    }

    // The server's tiles (from the world to the street) and a scale bar on a Leaflet map.
    function addServerTiles(map) {
      L.tileLayer(withToken("tiles/{z}/{x}/{y}.svg"), {
        maxZoom: 20, tileSize: 256, attribution: "GSHHG (Wessel &amp; Smith, LGPL); &copy; OpenStreetMap contributors",
      }).addTo(map);
      L.control.scale({imperial: false}).addTo(map);
    }

    // A phone on a Leaflet map: its position, its accuracy circle (shown by placePhone) and the
    // trail of the fixes seen since the page opened.
    function phoneLayers(map) {
      return {
        marker: L.circleMarker(defaultCenter, {className: "user", radius: 6, color: "#FFFFFF", weight: 2, fillColor: "#1E88E5", fillOpacity: 1}),
        accuracy: L.circle(defaultCenter, {className: "accuracy", radius: 0, color: "#1E88E5", weight: 1, opacity: 0.6, fillOpacity: 0.15}),
        trail: L.polyline([], {className: "trail", color: "#E53935", weight: 3, opacity: 0.7}).addTo(map),
      };
    }

    // Puts a phone's layers at its last fix, the trail one point longer when it moved; without a
    // fix takes the marker and circle off. The fix's coordinate, or null.
    function placePhone(layers, map, state) {
      const fix = state.lastFix;
      if (!fix || fix.lat === undefined || state.fixLost) { layers.marker.remove(); layers.accuracy.remove(); return null; }
      const at = [fix.lat, fix.lon];
      const last = layers.trail.getLatLngs().slice(-1)[0];
      if (!last || last.lat !== fix.lat || last.lng !== fix.lon) layers.trail.addLatLng(at);
      layers.marker.setLatLng(at).addTo(map);
      layers.accuracy.setLatLng(at).setRadius(fix.eph || 0);
      if (fix.eph) layers.accuracy.addTo(map); else layers.accuracy.remove();
      return at;
    }
    """#

  static let template = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>locemu serve</title>
    <link rel="stylesheet" href="leaflet/leaflet.css">
    <style>
      body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d1f23; }
      header { display: flex; gap: 1em; align-items: center; padding: .6em 1em; background: #20242b; color: #fff; }
      header h1 { font-size: 1.1em; margin: 0; }
      header .grow { flex: 1; }
      main { display: flex; flex-wrap: wrap; gap: 1em; padding: 1em; }
      .phone { background: #fff; border-radius: 8px; box-shadow: 0 1px 3px #0002; padding: .8em; width: 640px; }
      /* With Leaflet the cards share the window's width (two side by side from about 1,400 px). */
      body.leaflet main .phone { flex: 1 1 640px; width: auto; min-width: 640px; max-width: 1100px; }
      body.leaflet div.map { width: 100%; height: 400px; }
      .phone h2 { font-size: 1em; margin: 0 0 .5em; display: flex; justify-content: space-between; }
      table.state { border-collapse: collapse; margin-bottom: .5em; table-layout: fixed; width: 100%; }
      table.state td { padding: 1px 8px 1px 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
      table.state td:first-child { width: 9em; }
      table.state td:first-child { color: #666; }
      .value { font-weight: 600; font-variant-numeric: tabular-nums; }
      div.map { width: 640px; height: 360px; background: #e8e8e8; border-radius: 4px; overflow: hidden; cursor: crosshair; }
      div.map svg { display: block; }
      div.map.leaflet-container { cursor: crosshair; }
      .controls { display: flex; flex-wrap: wrap; gap: .3em; margin: .5em 0; align-items: center; }
      .controls span { color: #666; margin-left: .4em; }
      .controls span:first-child { min-width: 6.5em; margin-left: 0; }
      button { font: inherit; padding: 2px 8px; border-radius: 4px; border: 1px solid #aab; background: #f8f8fb; cursor: pointer; }
      button:hover { background: #e8ecf6; }
      input, select { font: inherit; width: 7em; }
      div.transcript { height: 180px; overflow-y: auto; background: #111; color: #cfe; padding: .4em; font: 12px/1.35 ui-monospace, monospace; }
      div.transcript .line { white-space: pre-wrap; cursor: pointer; }
      div.transcript .line .t { color: #8a9; }
      div.transcript .line .event { color: #fff; font-weight: 600; }
      div.transcript pre { margin: 0 0 .3em 2em; color: #9ab; white-space: pre-wrap; }
      #error { color: #ffb4b4; }
    </style>
    </head>
    <body>
    <header>
      <h1>locemu serve</h1>
      <span id="clock" style="min-width: 12em"></span>
      <span id="advance-box" hidden><input id="advance-seconds" value="1" size="4"> s <button id="advance">Advance</button></span>
      <span class="grow"></span>
      <span id="error"></span>
      <a id="world-map-link" href="map" style="color: #9cf">world map</a>
      <button id="new-phone">New phone</button>
    </header>
    <main id="phones"></main>
    <template id="phone-template">
      <section class="phone">
        <h2><span>Phone <span data-role="id"></span></span><button data-action="delete">Delete</button></h2>
        <table class="state">
          <tr><td>Permission</td><td class="value" data-field="status"></td></tr>
          <tr><td>Location Services</td><td class="value" data-field="services"></td></tr>
          <tr><td>Accuracy</td><td class="value" data-field="accuracy"></td></tr>
          <tr><td>App</td><td class="value" data-field="app"></td></tr>
          <tr><td>Prompt</td><td class="value" data-field="prompt"></td></tr>
          <tr><td>Last fix</td><td class="value" data-field="fix"></td></tr>
          <tr><td>Playing</td><td class="value" data-field="playing"></td></tr>
          <tr><td>Receiver</td><td class="value" data-field="receiver"></td></tr>
        </table>
        <div class="map" data-role="map" title="the phone at street zoom: a click sets its location or adds a waypoint"></div>
        <div class="controls"><span>Map click</span>
          <select data-input="click-mode" style="width: 12em">
            <option value="set">sets the location</option><option value="route">adds a waypoint</option>
          </select>
          <input data-input="route-speed" placeholder="route m/s">
          <button data-action="play-route" data-name="play-route">Play route</button>
          <button data-action="clear-route" data-name="clear-route">Clear route</button>
          <button data-post="playback" data-body='{"paused":true}' data-name="pause">Pause</button>
          <button data-post="playback" data-body='{"paused":false}' data-name="resume">Resume</button>
          <span data-role="route-info"></span>
        </div>
        <div class="controls" data-role="seek-row" hidden><span>Seek</span>
          <input type="range" data-input="seek" min="0" max="0" value="0" style="width: 24em">
          <span data-role="seek-info"></span>
        </div>
        <div class="controls"><span>Permission</span>
          <button data-post="privacy" data-body='{"action":"grant"}' data-name="grant">Grant</button>
          <button data-post="privacy" data-body='{"action":"grant","always":true}' data-name="always">Grant always</button>
          <button data-post="privacy" data-body='{"action":"revoke"}' data-name="revoke">Revoke</button>
          <button data-post="privacy" data-body='{"action":"reset"}' data-name="reset">Reset</button>
          <button data-post="privacy" data-body='{"action":"restrict"}' data-name="restrict">Restrict</button>
        </div>
        <div class="controls"><span>Services</span>
          <button data-post="services" data-body='{"enabled":true}' data-name="services-on">On</button>
          <button data-post="services" data-body='{"enabled":false}' data-name="services-off">Off</button>
          <span>Accuracy</span>
          <button data-post="accuracy" data-body='{"accuracy":"full"}' data-name="accuracy-full">Full</button>
          <button data-post="accuracy" data-body='{"accuracy":"reduced"}' data-name="accuracy-reduced">Reduced</button>
          <span>App</span>
          <button data-post="app" data-body='{"state":"foreground"}' data-name="foreground">Foreground</button>
          <button data-post="app" data-body='{"state":"background"}' data-name="background">Background</button>
        </div>
        <div class="controls"><span>Location</span>
          <input data-input="lat" placeholder="lat"> <input data-input="lon" placeholder="lon">
          <input data-input="altitude" placeholder="altitude m"> <input data-input="speed" placeholder="speed m/s">
          <button data-action="set-location" data-name="set-location">Set</button>
          <button data-action="clear-location" data-name="clear-location">Clear</button>
        </div>
        <div class="controls"><span>Trace</span>
          <input type="file" data-input="trace-file" accept=".nmea,.gpx,.kml,.geojson,.json,.jsonl,.ndjson,.log,.txt" style="width: 14em">
          <select data-input="trace-name" style="width: 12em"><option value="">server's traces…</option></select>
          <input data-input="trace-speed" placeholder="speed ×">
          <label><input type="checkbox" data-input="trace-loop" style="width: auto"> loop</label>
          <button data-action="play-trace" data-name="play-trace">Play</button>
        </div>
        <div class="controls"><span>Receiver</span>
          <select data-input="realism-profile" style="width: 10em">
            <option value="">perfect (off)</option><option value="open-sky">open-sky</option>
            <option value="suburban">suburban</option><option value="urban-canyon">urban-canyon</option>
            <option value="indoor">indoor</option><option value="tunnel">tunnel</option>
          </select>
          <input data-input="realism-seed" placeholder="seed">
          <select data-input="realism-start"><option>cold</option><option>warm</option><option>hot</option></select>
          <button data-action="set-realism" data-name="set-realism">Apply</button>
          <span>applies to what the phone plays next</span>
        </div>
        <div class="controls"><span>Prompt</span>
          <select data-input="answer" style="width: 11em">
            <option>allowWhileUsing</option><option>allowOnce</option><option>deny</option><option>none</option><option>allowAlways</option>
          </select>
          <input data-input="delay" placeholder="delay s">
          <button data-action="prompt" data-name="prompt">Script</button>
          <span>App calls</span>
          <button data-post="calls/authorize" data-name="authorize">Authorize</button>
          <button data-post="calls/request" data-name="request">Request</button>
          <button data-post="calls/locate" data-name="locate">Locate</button>
        </div>
        <div class="transcript" data-role="transcript"></div>
      </section>
    </template>
    <script src="leaflet/leaflet.js"></script>
    <script>
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

    async function refresh(id) {
      const state = await api("GET", "/phones/" + id);
      if (state) render(state);
    }

    function addCard(state) {
      const element = document.getElementById("phone-template").content.firstElementChild.cloneNode(true);
      const id = state.id;
      element.id = "phone-" + id;
      element.querySelector('[data-role="id"]').textContent = id;
      for (const name of ["status", "services", "accuracy", "app", "fix", "receiver", "playing"]) {
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
    </script>
    </body>
    </html>
    """#
}
