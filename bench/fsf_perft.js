// Times Fairy-Stockfish's own perft (its WebAssembly build from the npm
// registry, package fairy-stockfish-nnue.wasm) so Missive's perft speed can be
// compared on the same machine. Usage:
//   node --no-experimental-fetch bench/fsf_perft.js VARIANT DEPTH [FEN] [INI_FILE]
// Prints: "fsf-wasm VARIANT depth D: N nodes in S s = R nodes/s".
const path = require("path");
const fs = require("fs");
const Stockfish = require(path.join(__dirname, "node_modules", "fairy-stockfish-nnue.wasm", "stockfish.js"));

async function main() {
  const [variant, depth, fen, ini] = process.argv.slice(2);
  const sf = await Stockfish();
  let start = 0;
  const done = new Promise((resolve) => {
    sf.addMessageListener((line) => {
      const m = /^Nodes searched: (\d+)/.exec(line);
      if (m) resolve([Number(m[1]), (performance.now() - start) / 1000]);
    });
  });
  if (ini) {
    sf.FS.writeFile("/variants.ini", fs.readFileSync(ini));
    sf.postMessage("setoption name VariantPath value /variants.ini");
  }
  sf.postMessage(`setoption name UCI_Variant value ${variant}`);
  sf.postMessage(fen ? `position fen ${fen}` : "position startpos");
  sf.postMessage("isready");
  await new Promise((r) => setTimeout(r, 500));
  start = performance.now();
  sf.postMessage(`go perft ${depth}`);
  const [nodes, secs] = await done;
  console.log(`fsf-wasm ${variant} depth ${depth}: ${nodes} nodes in ${secs.toFixed(3)} s = ${Math.round(nodes / secs)} nodes/s`);
  sf.postMessage("quit");
  process.exit(0);
}
main();
