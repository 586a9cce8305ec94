// Browser tests of the playground: Debian's headless Chromium, driven by playwright-core, loads
// the built page (playground/build.sh) from a static server on 127.0.0.1.
//
// Oracles: the tutorials' published support points (classic GJK on the tutorial triangles and
// on the polygons of dyn4j's article); the `gjk` command line, run on the very scene the page
// shows after a drag (`gjk query` for the distance and depth, `gjk explain` for the words).
//
// Environment: CHROMIUM (default /usr/bin/chromium); GJK_BIN, the `gjk` binary (default:
// $CARGO_TARGET_DIR/debug/gjk or ../target/debug/gjk, else `cargo run -q -p gjk-cli --`);
// SCREENSHOT_DIR (default playground/test-output).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const www = path.resolve(here, "../www");
const repo = path.resolve(here, "../..");
const outDir = process.env.SCREENSHOT_DIR ?? path.resolve(here, "../test-output");

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css",
  ".json": "application/json", ".wasm": "application/wasm" };

let server;
let base;
let browser;

/** Runs the `gjk` command line with `args`, `input` on standard input; returns its output. */
function gjk(args, input) {
  const targetDir = process.env.CARGO_TARGET_DIR ?? path.join(repo, "target");
  const bin = process.env.GJK_BIN ?? path.join(targetDir, "debug", "gjk");
  const [cmd, cmdArgs] = existsSync(bin)
    ? [bin, args]
    : ["cargo", ["run", "-q", "-p", "gjk-cli", "--", ...args]];
  return execFileSync(cmd, cmdArgs, { cwd: repo, input, encoding: "utf8" });
}

before(async () => {
  assert.ok(existsSync(path.join(www, "gjk_playground.wasm")), "run playground/build.sh first");
  server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const file = path.join(www, path.normalize(url.pathname === "/" ? "/index.html" : url.pathname));
    if (!file.startsWith(www)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    // playwright-core gives each launch a fresh, empty profile of its own (--user-data-dir).
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function open(query) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(`${base}index.html${query}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  page.errors = errors;
  return page;
}

/** The support points of the GJK steps, as the page shows them (`data-support`). */
async function gjkSupports(page) {
  return page.$$eval("#steps li[data-stage=gjk] [data-support]", (els) => els.map((e) => e.dataset.support));
}

async function answer(page) {
  return page.$eval("#answer", (e) => ({ ...e.dataset, text: e.textContent }));
}

test("classic GJK shows the tutorials' support points", async () => {
  const page = await open("?example=tutorial-triangles&method=classic&step=3");
  assert.deepEqual(await gjkSupports(page), ["0,2", "0,-2", "-2,-2"]);
  assert.equal(await page.$eval("#steps li.current", (e) => e.dataset.step), "3");
  // Three GJK steps, then two EPA steps (the triangles overlap).
  assert.equal(await page.textContent("#position"), "step 3 of 5");
  await page.click("button[data-example=dyn4j]");
  assert.deepEqual(await gjkSupports(page), ["4,2", "-6,9", "-8,-2", "-1,-2"]);
  assert.match(page.url(), /example=dyn4j&method=classic&step=0/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the steps have the words of gjk explain, and arrow keys step through them", async () => {
  const page = await open("?example=dyn4j&method=robust");
  const cli = gjk(["explain", "dyn4j", "--method", "robust"]);
  const steps = await page.$$eval("#steps li[data-step] pre", (els) => els.map((e) => e.textContent));
  assert.ok(steps.length >= 5, `GJK and EPA steps: ${steps.length}`);
  for (const words of steps) assert.ok(cli.includes(words), `not in gjk explain: ${words}`);
  const stages = await page.$$eval("#steps li[data-step]", (els) => els.map((e) => e.dataset.stage));
  assert.ok(stages.includes("epa"), "an overlapping pair is followed by EPA steps");
  assert.ok(cli.includes("Penetration result: depth = "));
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.textContent("#position"), `step 2 of ${steps.length}`);
  assert.match(page.url(), /step=2/);
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.textContent("#position"), `step 1 of ${steps.length}`);
  const desc = await page.textContent("#difference-desc");
  assert.match(desc, /^Iteration 1: search direction d = \(1, -1\)/);
  assert.match(await page.textContent("#world-desc"), /Shape A: the triangle/);
  await page.close();
});

/** Drags the element matched by `selector` by (dx, dy) pixels with mouse events. */
async function drag(page, selector, dx, dy) {
  const box = await page.locator(selector).boundingBox();
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 3 });
  await page.mouse.move(x + dx, y + dy, { steps: 3 });
  await page.mouse.up();
}

/** `gjk query`'s answer for the scene the page shows. */
async function libraryAnswer(page) {
  const scene = JSON.parse(await page.$eval("body", (b) => b.dataset.scene));
  return JSON.parse(gjk(["query"], `${JSON.stringify({ id: 1, ...scene })}\n`));
}

test("dragging a vertex and a body changes the answer as the library says", async () => {
  const page = await open("?example=dyn4j&method=robust");
  const before = await answer(page);
  assert.equal(before.intersecting, "true");
  // The triangle's vertex (9, 9), dragged up and to the right: still overlapping, other depth.
  await drag(page, "[data-vertex=a2]", 40, -25);
  const moved = JSON.parse(await page.$eval("body", (b) => b.dataset.scene)).a.points[2];
  assert.notDeepEqual(moved, [9, 9]);
  assert.match(page.url(), /[?&]a=/, "an edited scene lives in the URL");
  const after = await answer(page);
  const lib = await libraryAnswer(page);
  assert.equal(after.intersecting, String(lib.intersects));
  assert.notEqual(Number(after.depth), Number(before.depth));
  assert.ok(Math.abs(Number(after.depth) - lib.penetration_depth) < 1e-9,
    `page depth ${after.depth}, gjk query ${lib.penetration_depth}`);
  // The quadrilateral, dragged away to the right: apart, at the library's distance.
  await drag(page, "path[data-shape=b]", 160, 0);
  const apart = await answer(page);
  const lib2 = await libraryAnswer(page);
  assert.equal(lib2.intersects, false);
  assert.equal(apart.intersecting, "false");
  assert.ok(Math.abs(Number(apart.distance) - lib2.distance) < 1e-9,
    `page distance ${apart.distance}, gjk query ${lib2.distance}`);
  // The link reproduces the edited scene.
  const again = await open(new URL(page.url()).search);
  assert.equal((await answer(again)).distance, apart.distance);
  await page.keyboard.press("End");
  await mkdir(outDir, { recursive: true });
  await page.screenshot({ path: path.join(outDir, "playground.png"), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
  await again.close();
});

test("every shape type can be chosen and stepped", async () => {
  const page = await open("?example=circle-polygon&method=robust");
  for (const type of ["capsule", "box", "ellipse", "polygon", "circle"]) {
    await page.selectOption("#type-b", type);
    const a = await answer(page);
    assert.ok(a.intersecting === "true" || a.intersecting === "false", `${type}: ${a.text}`);
    const lib = await libraryAnswer(page);
    assert.equal(a.intersecting, String(lib.intersects), type);
    if (a.distance !== undefined && a.intersecting === "false") {
      assert.ok(Math.abs(Number(a.distance) - lib.distance) < 1e-9, `${type}: ${a.distance} vs ${lib.distance}`);
    }
  }
  assert.equal(await page.isHidden("#error"), true);
  await page.close();
});

test("vertices can be added and removed, and the answer follows", async () => {
  const page = await open("?example=dyn4j&method=classic");
  const count = async () => JSON.parse(await page.$eval("body", (b) => b.dataset.scene)).b.points.length;
  assert.equal(await count(), 4);
  await page.click("[data-vertex=b1]"); // select (12, 7)
  await page.click("#add-vertex");
  assert.equal(await count(), 5);
  let lib = await libraryAnswer(page);
  assert.equal((await answer(page)).intersecting, String(lib.intersects));
  await page.click("[data-vertex=b0]");
  await page.click("#remove-vertex");
  await page.click("[data-vertex=b0]");
  await page.click("#remove-vertex");
  assert.equal(await count(), 3);
  // A polygon keeps three vertices: a third removal is refused with a message.
  await page.click("[data-vertex=b0]");
  await page.click("#remove-vertex");
  assert.equal(await count(), 3);
  assert.match(await page.textContent("#error"), /at least 3 vertices/);
  lib = await libraryAnswer(page);
  const a = await answer(page);
  assert.equal(a.intersecting, String(lib.intersects));
  if (lib.intersects) {
    assert.ok(Math.abs(Number(a.depth) - lib.penetration_depth) < 1e-9, `${a.depth} vs ${lib.penetration_depth}`);
  }
  await page.close();
});

/** A point (page coordinates) where a face of shape `side` is the topmost element in #world. */
async function shapePoint(page, side) {
  return page.evaluate((side) => {
    window.scrollTo(0, 0);
    const svg = document.getElementById("world");
    const faces = [...svg.querySelectorAll(`path[data-shape=${side}]`)].reverse();
    for (const face of faces) {
      const n = face.getAttribute("d").match(/-?\d+(\.\d+)?/g).map(Number);
      const [x, y] = [(n[0] + n[2] + n[4]) / 3, (n[1] + n[3] + n[5]) / 3];
      const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
      if (document.elementFromPoint(p.x, p.y) === face) return { x: p.x, y: p.y };
    }
    return null;
  }, side);
}

async function dragFrom(page, { x, y }, dx, dy) {
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 3 });
  await page.mouse.move(x + dx, y + dy, { steps: 3 });
  await page.mouse.up();
}

/** Checks the page's answer against `gjk query` on the scene it shows. */
async function agreesWithLibrary(page, what) {
  const a = await answer(page);
  const lib = await libraryAnswer(page);
  assert.equal(a.intersecting, String(lib.intersects), what);
  if (lib.intersects) {
    assert.ok(Math.abs(Number(a.depth) - lib.penetration_depth) < 1e-9,
      `${what}: page depth ${a.depth}, gjk query ${lib.penetration_depth}`);
  } else {
    assert.ok(Math.abs(Number(a.distance) - lib.distance) < 1e-9,
      `${what}: page distance ${a.distance}, gjk query ${lib.distance}`);
  }
  return a;
}

test("the 3D view draws the shapes, turns, steps through GJK and EPA's polytope, and agrees with the library", async () => {
  const page = await open("?example=tetrahedron-box&method=robust");
  assert.equal(await page.$eval("#world", (s) => s.dataset.dim), "3");
  for (const side of ["a", "b"]) {
    assert.ok(await page.locator(`#world path[data-shape=${side}]`).count() >= 1, `shape ${side} drawn`);
  }
  assert.ok(await page.locator("#difference path.difference").count() >= 4, "A − B drawn");
  // The steps have the words of `gjk explain` for the same built-in example.
  const cli = gjk(["explain", "tetrahedron-box"]);
  const steps = await page.$$eval("#steps li[data-step] pre", (els) => els.map((e) => e.textContent));
  for (const words of steps) assert.ok(cli.includes(words), `not in gjk explain: ${words}`);
  const stages = await page.$$eval("#steps li[data-step]", (els) => els.map((e) => e.dataset.stage));
  const firstEpa = stages.indexOf("epa") + 1;
  assert.ok(firstEpa > 1, "GJK steps, then EPA steps");
  // Step controls: the first EPA step shows the starting tetrahedron's 4 faces, one of them
  // the closest; the last shows as many faces as its words say.
  for (let k = 0; k < firstEpa; k++) await page.click("#forward");
  assert.equal(await page.textContent("#position"), `step ${firstEpa} of ${steps.length}`);
  assert.equal(await page.locator("#difference [data-epa-face]").count(), 4);
  assert.equal(await page.locator("#difference .epa-closest").count(), 1);
  await page.click("#last");
  const lastWords = steps[steps.length - 1];
  const faces = Number(/the polytope has (\d+) faces/.exec(lastWords)[1]);
  assert.equal(await page.locator("#difference [data-epa-face]").count(), faces);
  await page.click("#back");
  assert.equal(await page.textContent("#position"), `step ${steps.length - 1} of ${steps.length}`);
  await page.keyboard.press("End");
  await agreesWithLibrary(page, "tetrahedron-box");
  // Turning the view: drag the background of the difference's drawing.
  const before = await page.$eval("#world path[data-shape=a]", (p) => p.getAttribute("d"));
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.locator("#difference").boundingBox();
  const corner = { x: box.x + 6, y: box.y + 6 };
  assert.equal(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y).id, corner), "difference");
  await dragFrom(page, corner, 60, 30);
  assert.match(page.url(), /view=/);
  assert.notEqual(await page.$eval("#world path[data-shape=a]", (p) => p.getAttribute("d")), before);
  // Moving B across the screen: the answer follows the library's.
  const from = JSON.parse(await page.$eval("body", (b) => b.dataset.scene)).pose_b.translation;
  const at = await shapePoint(page, "b");
  assert.ok(at, "a face of B to grab");
  await dragFrom(page, at, 40, -20);
  const to = JSON.parse(await page.$eval("body", (b) => b.dataset.scene)).pose_b.translation;
  assert.notDeepEqual(to, from);
  assert.match(page.url(), /dim=3/, "an edited 3D scene lives in the URL");
  await agreesWithLibrary(page, "tetrahedron-box, B moved");
  // Far away: apart, at the library's distance.
  await dragFrom(page, await shapePoint(page, "b"), 150, 0);
  const apart = await agreesWithLibrary(page, "tetrahedron-box, B far");
  assert.equal(apart.intersecting, "false");
  // The link reproduces the edited scene and the view.
  const again = await open(new URL(page.url()).search);
  assert.equal((await answer(again)).distance, apart.distance);
  await again.close();
  // Every 3D shape type can be chosen.
  for (const type of ["sphere", "capsule", "box", "hull"]) {
    await page.selectOption("#type-a", type);
    await agreesWithLibrary(page, `A = ${type}`);
    assert.ok(await page.locator("#world path[data-shape=a]").count() >= (type === "sphere" ? 50 : 1), `${type} drawn`);
  }
  assert.equal(await page.isHidden("#error"), true);
  await page.goto(`${base}index.html?example=capsule-box-3d&step=100`);
  await page.waitForSelector("body[data-ready=true]");
  await agreesWithLibrary(page, "capsule-box-3d");
  await mkdir(outDir, { recursive: true });
  await page.screenshot({ path: path.join(outDir, "playground-3d.png"), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the space switch goes from 2D to 3D and back", async () => {
  const page = await open("?example=dyn4j");
  await page.check("input[name=space][value='3']");
  assert.equal(await page.$eval("#world", (s) => s.dataset.dim), "3");
  assert.deepEqual(await page.$$eval("#type-a option", (os) => os.map((o) => o.value)),
    ["box", "sphere", "capsule", "hull"]);
  await agreesWithLibrary(page, "first 3D example");
  await page.check("input[name=space][value='2']");
  assert.equal(await page.$eval("#world", (s) => s.dataset.dim), "2");
  assert.match(page.url(), /example=tutorial-triangles/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
