// The engine: gjk_playground.wasm (crates/gjk-playground) behind one function.
//
// The module exports three functions over its linear memory: gjk_request_buffer(len) hands out
// room for a request, gjk_answer(len) answers the request written there and returns the
// answer's length, gjk_answer_buffer() says where the answer is. Requests and answers are
// UTF-8 JSON; see crates/gjk-playground/src/lib.rs for their fields.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Loads the module and returns `explain(request) -> answer` (plain objects). */
export async function loadEngine(url = "gjk_playground.wasm") {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`cannot load ${url}: HTTP ${response.status} (run playground/build.sh first)`);
  }
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
  const wasm = instance.exports;
  return function explain(request) {
    const bytes = encoder.encode(JSON.stringify(request));
    const at = wasm.gjk_request_buffer(bytes.length);
    // Views are made after each call: memory may have grown, which detaches older views.
    new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
    const length = wasm.gjk_answer(bytes.length);
    const answer = new Uint8Array(wasm.memory.buffer, wasm.gjk_answer_buffer(), length);
    return JSON.parse(decoder.decode(answer));
  };
}
