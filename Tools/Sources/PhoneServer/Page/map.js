"use strict";
__SHARED_SCRIPT__
document.getElementById("controls-link").href = withToken("./");
const phones = {};
window.locemuPhones = phones;

if (typeof L === "undefined") {
  document.getElementById("map").innerHTML =
    '<p id="missing">Leaflet is not installed on the server\'s machine: install Debian\'s libjs-leaflet ' +
    '(<code>sudo apt-get install libjs-leaflet</code>) and reload. The <a href="./">controls page</a> draws its own map.</p>';
} else {
  const map = L.map("map", {worldCopyJump: true, keyboard: true}).setView(defaultCenter, 13);
  window.locemuMap = map;
  addServerTiles(map);
  const select = document.getElementById("phone-select");
  let first = true;

  const round = (v, d) => Number(v).toFixed(d);
  function fixText(state) {
    const fix = state.lastFix;
    if (state.fixLost) return "phone " + state.id + ": fix lost";
    if (!fix || fix.lat === undefined) return "phone " + state.id + ": no fix";
    let text = "phone " + state.id + ": " + round(fix.lat, 6) + ", " + round(fix.lon, 6);
    if (fix.eph !== undefined) text += " ±" + round(fix.eph, 1) + " m";
    if (fix.speed !== undefined) text += ", " + round(fix.speed, 1) + " m/s";
    return text;
  }

  function show(state) {
    const phone = phones[state.id];
    if (!phone) return;
    phone.state = state;
    const at = placePhone(phone, map, state);
    if (at && select.value === state.id && document.getElementById("follow").checked) {
      if (first) { map.setView(at, 16); first = false; } else if (!map.getBounds().contains(at)) { map.panTo(at); }
    }
    if (select.value === state.id) document.getElementById("fix").textContent = fixText(state);
  }

  function add(state) {
    if (phones[state.id]) return;
    const phone = {...phoneLayers(map), state};
    phone.marker.bindTooltip("phone " + state.id);
    phones[state.id] = phone;
    select.add(new Option("phone " + state.id, state.id));
    const events = new EventSource(withToken("phones/" + state.id + "/events"));
    events.onmessage = async () => {
      const fresh = await api("GET", "phones/" + state.id);
      if (fresh) show(fresh);
    };
    events.onerror = () => {
      if (events.readyState !== EventSource.CLOSED) return;
      phone.marker.remove(); phone.accuracy.remove(); phone.trail.remove();
      delete phones[state.id];
      for (const option of [...select.options]) if (option.value === state.id) option.remove();
    };
    show(state);
  }

  select.addEventListener("change", () => {
    first = true;
    const phone = phones[select.value];
    if (phone) show(phone.state);
  });
  map.on("click", async (event) => {
    if (!select.value) { showError("no phone: make one on the controls page"); return; }
    const ll = event.latlng.wrap();
    const state = await api("POST", "phones/" + select.value + "/location", {lat: ll.lat, lon: ll.lng});
    if (state) { first = false; show(state); }
  });

  // Search: a coordinate in any common form, or a name on the server's maps; Enter searches,
  // a result (or Enter again) moves the map there.
  const search = document.getElementById("search");
  const results = document.getElementById("results");
  const goTo = (lat, lon, zoom) => { map.setView([lat, lon], zoom, {animate: false}); };
  search.addEventListener("keydown", async (event) => {
    if (event.key === "Escape") { results.hidden = true; return; }
    if (event.key !== "Enter" || !search.value.trim()) return;
    const found = await api("GET", "places?q=" + encodeURIComponent(search.value.trim()));
    results.replaceChildren();
    if (!found) return;
    if (found.places.length === 0) { showError("nothing called '" + search.value.trim() + "' on this server's maps"); return; }
    for (const place of found.places) {
      const item = document.createElement("li");
      item.className = "result";
      const name = document.createElement("span");
      name.textContent = place.name;
      const kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = place.kind;
      item.append(name, kind);
      item.addEventListener("click", () => { results.hidden = true; goTo(place.lat, place.lon, place.kind === "place" ? 15 : 17); });
      results.appendChild(item);
    }
    results.hidden = false;
    const best = found.places[0];
    goTo(best.lat, best.lon, best.kind === "place" ? 15 : 17);
  });

  // Saved points: named, kept in this browser (localStorage) across reloads; a click moves
  // the map there and sets the chosen phone's location.
  const savedKey = "locemu.savedPoints";
  const saved = document.getElementById("saved");
  const loadSaved = () => { try { return JSON.parse(localStorage.getItem(savedKey) || "[]"); } catch (e) { return []; } };
  const storeSaved = (points) => localStorage.setItem(savedKey, JSON.stringify(points));
  function drawSaved() {
    saved.replaceChildren();
    const points = loadSaved();
    if (points.length === 0) {
      const empty = document.createElement("li");
      empty.textContent = "no saved points: move the map and press Save point";
      saved.appendChild(empty);
    }
    points.forEach((point, index) => {
      const item = document.createElement("li");
      item.className = "saved-point";
      const name = document.createElement("span");
      name.textContent = point.name;
      const where = document.createElement("span");
      where.className = "where";
      where.textContent = point.lat.toFixed(6) + ", " + point.lon.toFixed(6);
      const remove = document.createElement("span");
      remove.className = "remove";
      remove.textContent = "✕";
      remove.title = "forget this point";
      remove.addEventListener("click", (event) => {
        event.stopPropagation();
        const kept = loadSaved();
        kept.splice(index, 1);
        storeSaved(kept);
        drawSaved();
      });
      item.append(name, where, remove);
      item.addEventListener("click", async () => {
        saved.hidden = true;
        goTo(point.lat, point.lon, Math.max(map.getZoom(), 15));
        if (select.value) {
          const state = await api("POST", "phones/" + select.value + "/location", {lat: point.lat, lon: point.lon});
          if (state) { first = false; show(state); }
        }
      });
      saved.appendChild(item);
    });
  }
  document.getElementById("save-point").addEventListener("click", () => {
    const c = map.getCenter().wrap();
    const name = (window.prompt("Name of the point", search.value.trim() || c.lat.toFixed(5) + ", " + c.lng.toFixed(5)) || "").trim();
    if (!name) return;
    storeSaved([...loadSaved(), {name, lat: c.lat, lon: c.lng}]);
    drawSaved();
  });
  document.getElementById("show-saved").addEventListener("click", () => { drawSaved(); saved.hidden = !saved.hidden; });
  drawSaved();

  (async () => {
    const list = await api("GET", "phones");
    if (list) for (const state of list.phones) add(state);
    document.body.dataset.ready = "true";
  })();
}
