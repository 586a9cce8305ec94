// The 3D view: the engine's meshes (convex hulls of A, B and A − B, world coordinates) drawn in
// an orthographic projection that the learner turns by dragging, with GJK's simplex and EPA's
// polytope for the current step.
//
// The camera looks along −forward; `right`, `up` and `forward` are an orthonormal, right-handed
// basis made from two angles (yaw about the world's y axis, then pitch), so no library is
// needed. Faces are drawn back to front (painter's order, sound for convex meshes); only the
// faces turned toward the viewer are filled, so the far side of a shape never hides its near
// side.

const SVG = "http://www.w3.org/2000/svg";

/** The camera basis for `yaw` and `pitch` (radians). */
export function basis({ yaw, pitch }) {
  const [cy, sy, cp, sp] = [Math.cos(yaw), Math.sin(yaw), Math.cos(pitch), Math.sin(pitch)];
  return {
    right: [cy, 0, -sy],
    up: [sy * sp, cp, cy * sp],
    forward: [sy * cp, -sp, cy * cp],
  };
}

export const dot3 = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub3 = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross3 = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** A view showing `points`: their bounding sphere's centre and radius. */
export function fit3(points, size) {
  if (!points.length) return { center: [0, 0, 0], scale: 40, size };
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const p of points) {
    for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], p[i]); hi[i] = Math.max(hi[i], p[i]); }
  }
  const center = lo.map((l, i) => (l + hi[i]) / 2);
  const radius = Math.max(...points.map((p) => Math.hypot(...sub3(p, center))), 1e-6);
  return { center, scale: (0.42 * size) / radius, size };
}

/** The point on the drawing and its depth (larger is nearer the viewer). */
export function project(view, cam, p) {
  const q = sub3(p, view.center);
  return [view.size / 2 + dot3(q, cam.right) * view.scale, view.size / 2 - dot3(q, cam.up) * view.scale,
    dot3(q, cam.forward)];
}

/** The world displacement for a drag of (dx, dy) drawing units: in the screen's plane. */
export function unproject(view, cam, dx, dy) {
  const s = 1 / view.scale;
  return [0, 1, 2].map((i) => (cam.right[i] * dx - cam.up[i] * dy) * s);
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

const path = (points) => `M${points.map((p) => `${p[0].toFixed(2)} ${p[1].toFixed(2)}`).join("L")}Z`;

/**
 * The front faces of `meshes` ([{mesh, cls, attrs}]) in painter's order, each shaded by how
 * squarely it faces the viewer; returns the drawn elements.
 */
export function drawMeshes(g, view, cam, meshes) {
  const faces = [];
  for (const { mesh, cls, attrs } of meshes) {
    const projected = mesh.vertices.map((p) => project(view, cam, p));
    for (const t of mesh.triangles) {
      const [p, q, r] = t.map((i) => mesh.vertices[i]);
      const n = cross3(sub3(q, p), sub3(r, p));
      const length = Math.hypot(...n);
      if (!(length > 0)) continue;
      const facing = dot3(n, cam.forward) / length;
      if (facing <= 0) continue;
      const corners = t.map((i) => projected[i]);
      faces.push({ corners, depth: (corners[0][2] + corners[1][2] + corners[2][2]) / 3, facing, cls, attrs });
    }
  }
  faces.sort((a, b) => a.depth - b.depth);
  return faces.map((f) => {
    return el("path", { d: path(f.corners), class: f.cls, ...f.attrs,
      style: `filter: brightness(${(1.25 - 0.45 * (1 - f.facing)).toFixed(3)})` }, g);
  });
}

/** A polyline or polygon through world points. */
export function polyline(g, view, cam, points, cls, closed, attrs = {}) {
  const s = points.map((p) => project(view, cam, p));
  const d = `M${s.map((p) => `${p[0].toFixed(2)} ${p[1].toFixed(2)}`).join("L")}${closed ? "Z" : ""}`;
  return el("path", { d, class: cls, ...attrs }, g);
}

export function dot3d(g, view, cam, p, r, cls) {
  const [x, y] = project(view, cam, p);
  return el("circle", { cx: x, cy: y, r, class: cls }, g);
}

export function label3d(g, view, cam, p, text, dx = 6, dy = -6) {
  const [x, y] = project(view, cam, p);
  el("text", { x: x + dx, y: y + dy, class: "label" }, g).textContent = text;
}

/** An arrow from `from` along `vector`, `length` drawing units long on the screen plane. */
export function arrow3d(g, view, cam, from, vector, length, cls) {
  const n = Math.hypot(...vector);
  if (!(n > 0)) return;
  const to = from.map((x, i) => x + (vector[i] / n) * (length / view.scale));
  const [a, b] = [project(view, cam, from), project(view, cam, to)];
  el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: cls }, g);
}

/** The world's axes through the origin, short, in light grey (x, y, z labelled). */
export function axes3d(g, view, cam) {
  const length = 0.15 * view.size / view.scale;
  for (const [i, name] of [[0, "x"], [1, "y"], [2, "z"]]) {
    const to = [0, 0, 0];
    to[i] = length;
    polyline(g, view, cam, [[0, 0, 0], to], "axis", false);
    label3d(g, view, cam, to, name, 2, -2);
  }
}

/** The simplex of a GJK step: its edges (every pair of its points) and faces. */
export function drawSimplex(g, view, cam, points) {
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      for (let k = j + 1; k < points.length; k++) {
        polyline(g, view, cam, [points[i], points[j], points[k]], "simplex", true);
      }
      polyline(g, view, cam, [points[i], points[j]], "simplex-edge", false);
    }
  }
}

/** EPA's polytope: every face as a wireframe triangle, the closest one filled. */
export function drawPolytope(g, view, cam, faces, closest) {
  faces.forEach((face, k) => {
    const attrs = { "data-epa-face": String(k) };
    polyline(g, view, cam, face, k === closest ? "epa-closest" : "epa-face", true, attrs);
  });
}
