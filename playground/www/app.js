// The playground page: a scene of two shapes, 2D or 3D (in the JSON of `gjk query`), the
// engine's recorded run (the steps and words of `gjk explain`), two drawings and a stepper.
// 3D scenes are drawn by view3d.js in a projection the learner turns by dragging.
//
// Everything the page shows comes from one engine answer per scene change; the page itself only
// draws, edits the scene and keeps the URL in step (so a link reproduces what one sees).

import { loadEngine } from "./engine.js";
import * as v3 from "./view3d.js";

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 400; // the drawings' viewBox is SIZE x SIZE

/** A default shape of each type, in its local frame (the JSON of `gjk query`). */
const DEFAULT_SHAPES = {
  polygon: () => ({
    type: "polygon",
    points: [0, 1, 2, 3, 4].map((k) => {
      const t = (Math.PI / 2) + (2 * Math.PI * k) / 5;
      return [round(Math.cos(t)), round(Math.sin(t))];
    }),
  }),
  circle: () => ({ type: "circle", radius: 1 }),
  capsule: () => ({ type: "capsule", a: [-1, 0], b: [1, 0], radius: 0.5 }),
  box: () => ({ type: "box", half_extents: [1, 0.6] }),
  ellipse: () => ({ type: "ellipse", radii: [1.4, 0.7] }),
};
/** The same for 3D scenes. */
const DEFAULT_SHAPES_3D = {
  box: () => ({ type: "box", half_extents: [1, 0.6, 0.8] }),
  sphere: () => ({ type: "sphere", radius: 1 }),
  capsule: () => ({ type: "capsule", a: [-0.8, 0, 0], b: [0.8, 0, 0], radius: 0.5 }),
  hull: () => ({ type: "points", points: [[0, 1.2, 0], [-1, -0.5, -0.8], [1.1, -0.5, -0.7],
    [0.1, -0.4, 1.2], [0.6, 0.6, 0.6], [-0.7, 0.3, 0.7]] }),
};
const TYPE_OF_3D = { box: "box", cuboid: "box", sphere: "sphere", ball: "sphere", capsule: "capsule",
  points: "hull", polytope: "hull", polygon: "hull" };
const TYPE_OF = { polygon: "polygon", points: "polygon", circle: "circle", sphere: "circle",
  capsule: "capsule", box: "box", cuboid: "box", rectangle: "box", ellipse: "ellipse",
  ellipsoid: "ellipse" };

const IDENTITY = () => ({ translation: [0, 0], rotation: 0 });
const IDENTITY_3D = () => ({ translation: [0, 0, 0], rotation: [0, 0, 0, 1] });

/** The page's name for a shape's type in the scene's space. */
function typeOf(shape) {
  return (state.dim === 3 ? TYPE_OF_3D : TYPE_OF)[shape.type];
}

/** Rounds to 4 decimals so that edited scenes keep short numbers in the URL. */
function round(x) {
  const r = Math.round(x * 1e4) / 1e4;
  return r === 0 ? 0 : r;
}

const state = {
  examples: {},
  /** The built-in example the scene is, while unedited (then the engine explains it by name). */
  example: null,
  /** The example the scene came from (its first search direction is kept while editing). */
  direction: null,
  scene: null,
  method: "robust",
  step: 0,
  answer: null,
  selected: null, // { side: "a" | "b", index }
  views: { world: null, difference: null },
  /** 2 or 3: the scene's space. */
  dim: 2,
  /** The 3D camera's angles (radians), shared by both drawings. */
  camera: { yaw: 0.6, pitch: 0.45 },
};

let explain = null;

// ---------------------------------------------------------------- geometry

function rotate([x, y], angle) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return [c * x - s * y, s * x + c * y];
}

function toWorld(pose, p) {
  const [x, y] = rotate(p, pose.rotation);
  return [x + pose.translation[0], y + pose.translation[1]];
}

function toLocal(pose, p) {
  return rotate([p[0] - pose.translation[0], p[1] - pose.translation[1]], -pose.rotation);
}

/** The editable points of a shape: polygon vertices, capsule ends. */
function handles(shape) {
  if (state.dim === 3) return [];
  if (TYPE_OF[shape.type] === "polygon") return shape.points.map((p, i) => ({ key: i, p }));
  if (shape.type === "capsule") return [{ key: "a", p: shape.a }, { key: "b", p: shape.b }];
  return [];
}

function setHandle(shape, key, p) {
  const q = [round(p[0]), round(p[1])];
  if (typeof key === "number") shape.points[key] = q;
  else shape[key] = q;
}

/** The centroid of an outline's vertices (where a shape's label and turning ring sit). */
function centroid(points) {
  const n = Math.max(points.length, 1);
  return points.reduce((s, p) => [s[0] + p[0] / n, s[1] + p[1] / n], [0, 0]);
}

// ---------------------------------------------------------------- views

/** A view that shows `points` (world) in the SIZE x SIZE drawing with a margin. */
function fit(points) {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  if (!Number.isFinite(x0)) return { cx: 0, cy: 0, scale: 40 };
  const span = Math.max(x1 - x0, y1 - y0, 1e-6);
  return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, scale: (0.8 * SIZE) / span };
}

function screen(view, [x, y]) {
  return [SIZE / 2 + (x - view.cx) * view.scale, SIZE / 2 - (y - view.cy) * view.scale];
}

function unscreen(view, [X, Y]) {
  return [view.cx + (X - SIZE / 2) / view.scale, view.cy - (Y - SIZE / 2) / view.scale];
}

/** Whether both drawings still show everything (else a drag's end refits them). */
function inView() {
  if (state.dim === 3) {
    // Whether every vertex of A and B (and of A − B) still projects into the drawings.
    const cam = v3.basis(state.camera);
    const inside = (view, mesh) => mesh.vertices.every((p) => {
      const [x, y] = v3.project(view, cam, p);
      return x >= 0 && x <= SIZE && y >= 0 && y <= SIZE;
    });
    const m = state.answer.meshes;
    return inside(state.views.world, m.a) && inside(state.views.world, m.b)
      && inside(state.views.difference, m.difference);
  }
  const o = state.answer.outlines;
  const inside = (view, points) => points.every((p) => {
    const [x, y] = screen(view, p);
    return x >= 0 && x <= SIZE && y >= 0 && y <= SIZE;
  });
  return inside(state.views.world, [...o.a, ...o.b]) && inside(state.views.difference, o.difference);
}

function fitViews() {
  if (state.dim === 3 && state.answer?.meshes) {
    const m = state.answer.meshes;
    state.views.world = v3.fit3([...m.a.vertices, ...m.b.vertices], SIZE);
    state.views.difference = v3.fit3([...m.difference.vertices, [0, 0, 0]], SIZE);
    return;
  }
  const o = state.answer?.outlines;
  if (!o) return;
  state.views.world = fit([...o.a, ...o.b]);
  state.views.difference = fit([...o.difference, [0, 0]]);
}

// ---------------------------------------------------------------- engine

function request() {
  // A built-in example of `gjk explain` is asked for by name (its title and words are then
  // exactly the command's); the page's own examples send their shapes.
  if (state.example && state.examples[state.example].builtin !== false) {
    return { example: state.example, method: state.method };
  }
  const r = { pair: state.scene, method: state.method };
  if (state.direction) r.direction = state.direction;
  return r;
}

function update({ refit = false } = {}) {
  const answer = explain(request());
  const error = document.getElementById("error");
  if (!answer.ok) {
    error.hidden = false;
    error.textContent = `The engine refused the scene: ${answer.error}`;
    return;
  }
  error.hidden = true;
  state.answer = answer;
  state.step = Math.max(0, Math.min(state.step, answer.steps.length));
  if (refit || !state.views.world) fitViews();
  render();
  writeUrl();
}

// ---------------------------------------------------------------- scene loading and the URL

function loadExample(name) {
  const e = state.examples[name];
  state.example = name;
  state.dim = e.dim ?? 2;
  state.direction = e.direction ?? null;
  const identity = state.dim === 3 ? IDENTITY_3D : IDENTITY;
  state.scene = {
    a: structuredClone(e.a),
    pose_a: structuredClone(e.pose_a ?? identity()),
    b: structuredClone(e.b),
    pose_b: structuredClone(e.pose_b ?? identity()),
  };
  state.selected = null;
}

/** The scene is edited: from now on the engine gets the shapes, not the example's name. */
function edited() {
  state.example = null;
}

function poseText(pose) {
  // 3D rotations keep full precision: rounding a unit quaternion would make it not unit.
  if (state.dim === 3) return [...pose.translation.map(round), ...pose.rotation].join(",");
  return [pose.translation[0], pose.translation[1], pose.rotation].map(round).join(",");
}

/** A pose from the URL: x,y,angle (2D) or x,y,z,qx,qy,qz,qw (3D). */
function parsePose(text) {
  const n = text.split(",").map(Number);
  const count = state.dim === 3 ? 7 : 3;
  if (n.length !== count || n.some((x) => !Number.isFinite(x))) throw new Error(`bad pose '${text}'`);
  if (state.dim === 3) return { translation: n.slice(0, 3), rotation: n.slice(3) };
  return { translation: [n[0], n[1]], rotation: n[2] };
}

function writeUrl() {
  const q = new URLSearchParams();
  if (state.example) {
    q.set("example", state.example);
  } else {
    q.set("a", JSON.stringify(state.scene.a));
    q.set("pa", poseText(state.scene.pose_a));
    q.set("b", JSON.stringify(state.scene.b));
    q.set("pb", poseText(state.scene.pose_b));
    if (state.direction) q.set("dir", state.direction.join(","));
  }
  if (state.dim === 3) {
    if (!state.example) q.set("dim", "3");
    q.set("view", [state.camera.yaw, state.camera.pitch].map(round).join(","));
  }
  q.set("method", state.method);
  q.set("step", String(state.step));
  history.replaceState(null, "", `${location.pathname}?${q}`);
  document.body.dataset.scene = JSON.stringify(state.scene);
}

function readUrl() {
  const q = new URLSearchParams(location.search);
  const method = q.get("method");
  if (method === "robust" || method === "classic") state.method = method;
  if (q.has("a") && q.has("b")) {
    try {
      state.dim = q.get("dim") === "3" ? 3 : 2;
      const identity = state.dim === 3 ? IDENTITY_3D : IDENTITY;
      state.scene = {
        a: JSON.parse(q.get("a")),
        pose_a: q.has("pa") ? parsePose(q.get("pa")) : identity(),
        b: JSON.parse(q.get("b")),
        pose_b: q.has("pb") ? parsePose(q.get("pb")) : identity(),
      };
      state.example = null;
      const dir = q.get("dir")?.split(",").map(Number);
      state.direction = dir && dir.length === state.dim && dir.every(Number.isFinite) ? dir : null;
    } catch (e) {
      showError(`The link's shapes cannot be read: ${e.message}`);
      loadExample("tutorial-triangles");
    }
  } else {
    const name = q.get("example");
    loadExample(name in state.examples ? name : "tutorial-triangles");
  }
  const view = q.get("view")?.split(",").map(Number);
  if (view && view.length === 2 && view.every(Number.isFinite)) {
    state.camera = { yaw: view[0], pitch: Math.max(-1.5, Math.min(1.5, view[1])) };
  }
  const step = Number(q.get("step"));
  state.step = Number.isInteger(step) && step >= 0 ? step : 0;
}

function showError(message) {
  const error = document.getElementById("error");
  error.hidden = false;
  error.textContent = message;
}

// ---------------------------------------------------------------- drawing

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function pathOf(view, points, closed = true) {
  if (!points.length) return "";
  const d = points.map((p, i) => `${i ? "L" : "M"}${screen(view, p).map((x) => x.toFixed(2)).join(" ")}`);
  return d.join("") + (closed ? "Z" : "");
}

function dot(view, p, r, cls, parent) {
  const [x, y] = screen(view, p);
  return el("circle", { cx: x, cy: y, r, class: cls }, parent);
}

function label(view, p, text, parent, dx = 6, dy = -6) {
  const [x, y] = screen(view, p);
  const t = el("text", { x: x + dx, y: y + dy, class: "label" }, parent);
  t.textContent = text;
}

function arrow(view, from, vector, length, cls, parent) {
  const n = Math.hypot(vector[0], vector[1]);
  if (!(n > 0)) return;
  const to = [from[0] + (vector[0] / n) * length, from[1] + (vector[1] / n) * length];
  const [x1, y1] = screen(view, from);
  const [x2, y2] = screen(view, to);
  el("line", { x1, y1, x2, y2, class: cls }, parent);
}

function prepare(svg) {
  for (const child of [...svg.children]) {
    if (child.tagName !== "title" && child.tagName !== "desc") child.remove();
  }
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5,
    markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0 0L10 5L0 10z", fill: "#c0188c" }, marker);
  return el("g", {}, svg);
}

function axes(view, g) {
  const [ox, oy] = screen(view, [0, 0]);
  el("line", { x1: 0, y1: oy, x2: SIZE, y2: oy, class: "axis" }, g);
  el("line", { x1: ox, y1: 0, x2: ox, y2: SIZE, class: "axis" }, g);
}

function currentStep() {
  return state.step > 0 ? state.answer.steps[state.step - 1] : null;
}

function atEnd() {
  return state.step === state.answer.steps.length;
}

function drawWorld() {
  const svg = document.getElementById("world");
  const view = state.views.world;
  const g = prepare(svg);
  axes(view, g);
  const { outlines } = state.answer;
  for (const side of ["a", "b"]) {
    const body = el("path", { d: pathOf(view, outlines[side]), class: `shape-${side}`,
      "data-shape": side }, g);
    body.addEventListener("pointerdown", (ev) => startDrag(ev, { kind: "move", side }));
    const pose = state.scene[`pose_${side}`];
    const middle = centroid(outlines[side]);
    label(view, middle, side.toUpperCase(), g, -4, 4);
    // The turning ring: 45 px from the shape's middle along its local x axis.
    const [tx, ty] = screen(view, middle);
    const ring = el("circle", { cx: tx + 45 * Math.cos(pose.rotation), cy: ty - 45 * Math.sin(pose.rotation),
      r: 7, class: "turn", "data-turn": side }, g);
    ring.addEventListener("pointerdown", (ev) => startDrag(ev, { kind: "turn", side }));
    for (const h of handles(state.scene[side])) {
      const selected = state.selected?.side === side && state.selected.index === h.key;
      const v = dot(view, toWorld(pose, h.p), 6, `vertex${selected ? " selected" : ""}`, g);
      v.dataset.vertex = `${side}${h.key}`;
      v.addEventListener("pointerdown", (ev) => startDrag(ev, { kind: "vertex", side, key: h.key }));
    }
  }
  const step = currentStep();
  if (step) {
    dot(view, step.support_a, 4, "support", g);
    label(view, step.support_a, "s_A(d)", g);
    dot(view, step.support_b, 4, "support", g);
    label(view, step.support_b, "s_B(−d)", g);
  }
  if (atEnd()) {
    const end = state.answer.separation ?? state.answer.penetration;
    if (end) {
      const [x1, y1] = screen(view, end.point_a);
      const [x2, y2] = screen(view, end.point_b);
      el("line", { x1, y1, x2, y2, class: "witness" }, g);
      dot(view, end.point_a, 3.5, "closest", g);
      dot(view, end.point_b, 3.5, "closest", g);
    }
  }
}

function drawDifference() {
  const svg = document.getElementById("difference");
  const view = state.views.difference;
  const g = prepare(svg);
  axes(view, g);
  el("path", { d: pathOf(view, state.answer.outlines.difference), class: "difference" }, g);
  // Rounded shapes: GJK and EPA run on the cores, whose difference is drawn dashed inside.
  const core = state.answer.outlines.core_difference;
  if (core) el("path", { d: pathOf(view, core), class: "core-difference" }, g);
  const step = currentStep();
  const span = (0.2 * SIZE) / view.scale;
  if (step) {
    const poly = step.simplex;
    if (poly.length >= 2) el("path", { d: pathOf(view, poly, poly.length > 2), class: "simplex" }, g);
    for (const p of poly) dot(view, p, 3.5, "simplex-point", g);
    if (step.edge) {
      const [p, q] = [poly[step.edge[0]], poly[step.edge[1]]];
      const [x1, y1] = screen(view, p);
      const [x2, y2] = screen(view, q);
      el("line", { x1, y1, x2, y2, class: "edge" }, g);
    }
    arrow(view, [0, 0], step.direction, span, "direction", g);
    label(view, [0, 0], "d", g, 8, 14);
    if (step.closest) {
      dot(view, step.closest, 3.5, "closest", g);
      label(view, step.closest, "v", g, 6, 14);
    }
    dot(view, step.w, 5, "support", g);
    label(view, step.w, "w", g);
  }
  const [ox, oy] = screen(view, [0, 0]);
  el("path", { d: `M${ox - 7} ${oy}h14M${ox} ${oy - 7}v14`, class: "origin" }, g);
}

// ---------------------------------------------------------------- drawing in 3D

function drawWorld3() {
  const svg = document.getElementById("world");
  const view = state.views.world;
  const cam = v3.basis(state.camera);
  const g = prepare(svg);
  svg.dataset.dim = "3";
  v3.axes3d(g, view, cam);
  const { meshes } = state.answer;
  const faces = v3.drawMeshes(g, view, cam, [
    { mesh: meshes.a, cls: "shape-a", attrs: { "data-shape": "a" } },
    { mesh: meshes.b, cls: "shape-b", attrs: { "data-shape": "b" } },
  ]);
  for (const face of faces) {
    const side = face.dataset.shape;
    face.addEventListener("pointerdown", (ev) => startDrag(ev, { kind: "move", side }));
  }
  for (const side of ["a", "b"]) {
    v3.label3d(g, view, cam, state.scene[`pose_${side}`].translation, side.toUpperCase(), -4, 4);
  }
  const step = currentStep();
  if (step) {
    v3.dot3d(g, view, cam, step.support_a, 4, "support");
    v3.label3d(g, view, cam, step.support_a, "s_A(d)");
    v3.dot3d(g, view, cam, step.support_b, 4, "support");
    v3.label3d(g, view, cam, step.support_b, "s_B(−d)");
  }
  if (atEnd()) {
    const end = state.answer.separation ?? state.answer.penetration;
    if (end) {
      v3.polyline(g, view, cam, [end.point_a, end.point_b], "witness", false);
      v3.dot3d(g, view, cam, end.point_a, 3.5, "closest");
      v3.dot3d(g, view, cam, end.point_b, 3.5, "closest");
    }
  }
}

function drawDifference3() {
  const svg = document.getElementById("difference");
  const view = state.views.difference;
  const cam = v3.basis(state.camera);
  const g = prepare(svg);
  svg.dataset.dim = "3";
  v3.axes3d(g, view, cam);
  v3.drawMeshes(g, view, cam, [{ mesh: state.answer.meshes.difference, cls: "difference", attrs: {} }]);
  // Rounded shapes: GJK and EPA run on the cores, whose difference is drawn dashed inside.
  const core = state.answer.meshes.core_difference;
  if (core) v3.drawMeshes(g, view, cam, [{ mesh: core, cls: "core-difference", attrs: {} }]);
  const step = currentStep();
  if (step) {
    if (step.stage === "epa") {
      v3.drawPolytope(g, view, cam, step.faces, step.face);
    } else {
      v3.drawSimplex(g, view, cam, step.simplex);
    }
    for (const p of step.simplex) v3.dot3d(g, view, cam, p, 3, "simplex-point");
    v3.arrow3d(g, view, cam, [0, 0, 0], step.direction, 0.2 * SIZE, "direction");
    v3.label3d(g, view, cam, [0, 0, 0], "d", 8, 14);
    if (step.closest) {
      v3.dot3d(g, view, cam, step.closest, 3.5, "closest");
      v3.label3d(g, view, cam, step.closest, "v", 6, 14);
    }
    v3.dot3d(g, view, cam, step.w, 5, "support");
    v3.label3d(g, view, cam, step.w, "w");
  }
  const [ox, oy] = v3.project(view, cam, [0, 0, 0]);
  el("path", { d: `M${ox - 7} ${oy}h14M${ox} ${oy - 7}v14`, class: "origin" }, g);
}

/** Dragging the background of a 3D drawing turns the camera (both drawings together). */
function startOrbit(ev) {
  if (state.dim !== 3 || ev.button > 0) return;
  ev.preventDefault();
  const from = { x: ev.clientX, y: ev.clientY, ...state.camera };
  const move = (e) => {
    state.camera = {
      yaw: from.yaw - 0.01 * (e.clientX - from.x),
      pitch: Math.max(-1.5, Math.min(1.5, from.pitch + 0.01 * (e.clientY - from.y))),
    };
    drawWorld3();
    drawDifference3();
  };
  const end = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
    writeUrl();
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

function describe() {
  const intro = state.answer.intro.split("\n");
  const shapes = intro.filter((l) => l.startsWith("Shape A:") || l.startsWith("Shape B:"));
  document.getElementById("world-desc").textContent =
    `${shapes.join(" ")} ${atEnd() ? state.answer.result : ""}`.trim();
  const step = currentStep();
  document.getElementById("difference-desc").textContent = step
    ? step.text.trim()
    : "The Minkowski difference A − B before the first step, with the origin marked.";
}

// ---------------------------------------------------------------- text

/** A step's words, with its support point `w = (x, y)` in a `data-support` element. */
function stepText(text) {
  const pre = document.createElement("pre");
  const match = /w = (\([^)]*\))/.exec(text);
  if (!match) {
    pre.textContent = text.trimEnd();
    return pre;
  }
  const at = match.index + 4;
  pre.append(text.slice(0, at));
  const span = document.createElement("span");
  span.className = "support-text";
  span.dataset.support = match[1].slice(1, -1).replace(/\s+/g, "");
  span.textContent = match[1];
  pre.append(span, text.slice(at + match[1].length).trimEnd());
  return pre;
}

function note(text, list) {
  if (!text.trim()) return;
  const li = document.createElement("li");
  li.className = "note";
  const pre = document.createElement("pre");
  pre.textContent = text.trim();
  li.append(pre);
  list.append(li);
}

function renderText() {
  const a = state.answer;
  document.getElementById("intro").textContent = a.intro.trimEnd();
  const list = document.getElementById("steps");
  list.replaceChildren();
  let epaStarted = false;
  a.steps.forEach((step, k) => {
    if (step.stage === "epa" && !epaStarted) {
      note(a.result, list);
      note(a.epa_intro, list);
      epaStarted = true;
    }
    const li = document.createElement("li");
    li.value = k + 1;
    li.dataset.step = String(k + 1);
    li.dataset.stage = step.stage;
    li.className = k + 1 === state.step ? "current" : k + 1 > state.step ? "future" : "";
    li.append(stepText(step.text));
    li.addEventListener("click", () => goTo(k + 1));
    list.append(li);
  });
  if (!epaStarted) note(a.result, list);
  note(a.epa_result, list);
  const n = a.steps.length;
  document.getElementById("position").textContent = `step ${state.step} of ${n}`;
  renderAnswer();
}

function fmt(x) {
  return String(round(x));
}

function pt(p) {
  return `(${p.map(fmt).join(", ")})`;
}

function renderAnswer() {
  const a = state.answer;
  const out = document.getElementById("answer");
  const verdict = a.intersecting === true ? "intersecting" : a.intersecting === false ? "apart" : "no answer";
  out.dataset.intersecting = String(a.intersecting);
  delete out.dataset.distance;
  delete out.dataset.depth;
  delete out.dataset.libraryDepth;
  let text = `${a.method === "classic" ? "Classic" : "Robust"} GJK: ${verdict}`;
  if (a.separation) {
    out.dataset.distance = String(a.separation.distance);
    text += `, distance ${fmt(a.separation.distance)} between ${pt(a.separation.point_a)} and ${pt(a.separation.point_b)}`;
  } else if (a.intersecting === true && a.method === "robust") {
    out.dataset.distance = "0";
  }
  if (a.penetration) {
    const p = a.penetration;
    out.dataset.depth = String(p.depth);
    if (p.library_depth !== null) out.dataset.libraryDepth = String(p.library_depth);
    text += `; penetration depth ${fmt(p.depth)} along ${pt(p.normal)} (EPA, ${p.how})`;
    if (p.library_depth !== null) text += `; the library's contact query: ${fmt(p.library_depth)}`;
  }
  out.textContent = `${text}.`;
}

function render() {
  if (state.dim === 3) {
    drawWorld3();
    drawDifference3();
  } else {
    document.getElementById("world").dataset.dim = "2";
    document.getElementById("difference").dataset.dim = "2";
    drawWorld();
    drawDifference();
  }
  renderText();
  describe();
  document.querySelectorAll("input[name=method]").forEach((r) => { r.checked = r.value === state.method; });
  document.querySelectorAll("input[name=space]").forEach((r) => { r.checked = Number(r.value) === state.dim; });
  document.getElementById("add-vertex").disabled = state.dim === 3;
  document.getElementById("remove-vertex").disabled = state.dim === 3;
  for (const side of ["a", "b"]) {
    const select = document.getElementById(`type-${side}`);
    const types = Object.keys(state.dim === 3 ? DEFAULT_SHAPES_3D : DEFAULT_SHAPES);
    if (select.dataset.dim !== String(state.dim)) {
      select.replaceChildren(...types.map((type) => {
        const o = document.createElement("option");
        o.value = type;
        o.textContent = type;
        return o;
      }));
      select.dataset.dim = String(state.dim);
    }
    select.value = typeOf(state.scene[side]) ?? types[0];
  }
}

// ---------------------------------------------------------------- stepping

function goTo(step) {
  state.step = Math.max(0, Math.min(step, state.answer.steps.length));
  render();
  writeUrl();
  document.querySelector("#steps li.current")?.scrollIntoView({ block: "nearest" });
}

// ---------------------------------------------------------------- dragging (mouse, pen, touch)

function pointerWorld(ev, svg, view) {
  const m = svg.getScreenCTM().inverse();
  const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m);
  return unscreen(view, [p.x, p.y]);
}

function startDrag(ev, target) {
  ev.preventDefault();
  ev.stopPropagation();
  const svg = document.getElementById("world");
  const view = state.views.world;
  if (state.dim === 3) return startMove3(ev, svg, view, target.side);
  const start = pointerWorld(ev, svg, view);
  const pose = state.scene[`pose_${target.side}`];
  const from = { translation: [...pose.translation], rotation: pose.rotation };
  // Turning is about the shape's middle, which stays put: t' = c + R(θ' − θ)(t − c).
  const middle = centroid(state.answer.outlines[target.side]);
  if (target.kind === "vertex") {
    state.selected = { side: target.side, index: target.key };
  }
  let moved = false;
  const move = (e) => {
    const p = pointerWorld(e, svg, view);
    moved = true;
    if (target.kind === "move") {
      pose.translation = [round(from.translation[0] + p[0] - start[0]), round(from.translation[1] + p[1] - start[1])];
    } else if (target.kind === "turn") {
      pose.rotation = round(Math.atan2(p[1] - middle[1], p[0] - middle[0]));
      const offset = rotate([from.translation[0] - middle[0], from.translation[1] - middle[1]],
        pose.rotation - from.rotation);
      pose.translation = [round(middle[0] + offset[0]), round(middle[1] + offset[1])];
    } else {
      setHandle(state.scene[target.side], target.key, toLocal(pose, p));
    }
    edited();
    update();
  };
  const end = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
    if (!moved) render();
    else if (!inView()) { fitViews(); render(); }
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

/** Moves a 3D shape in the plane of the screen, following the pointer. */
function startMove3(ev, svg, view, side) {
  const cam = v3.basis(state.camera);
  const m = svg.getScreenCTM().inverse();
  const at = (e) => new DOMPoint(e.clientX, e.clientY).matrixTransform(m);
  const start = at(ev);
  const pose = state.scene[`pose_${side}`];
  const from = [...pose.translation];
  let moved = false;
  const move = (e) => {
    const p = at(e);
    const shift = v3.unproject(view, cam, p.x - start.x, p.y - start.y);
    pose.translation = from.map((x, i) => round(x + shift[i]));
    moved = true;
    edited();
    update();
  };
  const end = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
    if (moved && !inView()) { fitViews(); render(); }
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

// ---------------------------------------------------------------- controls

function addVertex() {
  const side = state.selected?.side ?? (TYPE_OF[state.scene.a.type] === "polygon" ? "a" : "b");
  const shape = state.scene[side];
  if (TYPE_OF[shape.type] !== "polygon") return showError("Select a vertex of a polygon first.");
  const pts = shape.points;
  // After the selected vertex, or on the longest edge: the new vertex goes out a little past the
  // edge's midpoint so that it stays a corner of the hull.
  let i = typeof state.selected?.index === "number" && state.selected.side === side ? state.selected.index : -1;
  if (i < 0) {
    let best = -1;
    pts.forEach((p, k) => {
      const q = pts[(k + 1) % pts.length];
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (len > best) { best = len; i = k; }
    });
  }
  const p = pts[i];
  const q = pts[(i + 1) % pts.length];
  const c = pts.reduce((s, r) => [s[0] + r[0] / pts.length, s[1] + r[1] / pts.length], [0, 0]);
  const m = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
  pts.splice(i + 1, 0, [round(m[0] + 0.15 * (m[0] - c[0])), round(m[1] + 0.15 * (m[1] - c[1]))]);
  state.selected = { side, index: i + 1 };
  edited();
  update();
}

function removeVertex() {
  const sel = state.selected;
  const shape = sel && state.scene[sel.side];
  if (!shape || TYPE_OF[shape.type] !== "polygon") return showError("Select a vertex of a polygon first.");
  if (shape.points.length <= 3) return showError("A polygon keeps at least 3 vertices.");
  shape.points.splice(sel.index, 1);
  state.selected = null;
  edited();
  update();
}

function setType(side, type) {
  if (typeOf(state.scene[side]) === type) return;
  state.scene[side] = (state.dim === 3 ? DEFAULT_SHAPES_3D : DEFAULT_SHAPES)[type]();
  state.selected = null;
  edited();
  update({ refit: true });
}

function wire() {
  const examples = document.getElementById("examples");
  for (const name of Object.keys(state.examples)) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = name;
    b.dataset.example = name;
    b.addEventListener("click", () => {
      loadExample(name);
      state.step = 0;
      update({ refit: true });
    });
    examples.append(b);
  }
  for (const side of ["a", "b"]) {
    const select = document.getElementById(`type-${side}`);
    select.addEventListener("change", () => setType(side, select.value));
  }
  document.querySelectorAll("input[name=space]").forEach((r) =>
    r.addEventListener("change", () => {
      // Each space starts from its first example.
      const first = Object.keys(state.examples).find((n) => (state.examples[n].dim ?? 2) === Number(r.value));
      loadExample(first);
      state.step = 0;
      update({ refit: true });
    }));
  for (const id of ["world", "difference"]) {
    document.getElementById(id).addEventListener("pointerdown", startOrbit);
  }
  document.querySelectorAll("input[name=method]").forEach((r) =>
    r.addEventListener("change", () => { state.method = r.value; update(); }));
  document.getElementById("first").addEventListener("click", () => goTo(0));
  document.getElementById("back").addEventListener("click", () => goTo(state.step - 1));
  document.getElementById("forward").addEventListener("click", () => goTo(state.step + 1));
  document.getElementById("last").addEventListener("click", () => goTo(Infinity));
  document.getElementById("add-vertex").addEventListener("click", addVertex);
  document.getElementById("remove-vertex").addEventListener("click", removeVertex);
  document.getElementById("fit").addEventListener("click", () => { fitViews(); render(); });
  document.getElementById("share").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
    } catch {
      showError(`Copy this link: ${location.href}`);
    }
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    const to = { ArrowRight: state.step + 1, ArrowDown: state.step + 1, ArrowLeft: state.step - 1,
      ArrowUp: state.step - 1, Home: 0, End: Infinity }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    goTo(to);
  });
}

async function main() {
  try {
    const [engine, examples] = await Promise.all([
      loadEngine(),
      fetch("examples.json").then((r) => r.json()),
    ]);
    explain = engine;
    state.examples = examples;
    wire();
    readUrl();
    update({ refit: true });
    document.body.dataset.ready = "true";
  } catch (e) {
    showError(`The playground could not start: ${e.message}`);
  }
}

main();
