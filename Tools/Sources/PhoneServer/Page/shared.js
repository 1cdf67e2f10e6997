// Where a phone without a fix is shown: the middle of the server's city map, else --fixed's default.
const defaultCenter = __DEFAULT_CENTER__;
// A tile server's street map under the phones (serve --tiles): {url, attribution}, or null.
const streetTiles = __STREET_TILES__;
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

// The server's tiles (from the world to the street) and a scale bar on a Leaflet map; with a
// tile server (serve --tiles), its street map shown first, the offline map one click away.
function addServerTiles(map) {
  const offline = L.tileLayer(withToken("tiles/{z}/{x}/{y}.svg"), {
    maxZoom: 20, tileSize: 256, attribution: "GSHHG (Wessel &amp; Smith, LGPL); &copy; OpenStreetMap contributors",
  });
  if (streetTiles) {
    const street = L.tileLayer(streetTiles.url, {maxZoom: 19, tileSize: 256, attribution: streetTiles.attribution, className: "street-tiles"});
    street.addTo(map);
    L.control.layers({"Street map": street, "Offline map": offline}, {}, {collapsed: false}).addTo(map);
  } else {
    offline.addTo(map);
  }
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
